import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { errorFrame } from './frames';
import { STREAM_V2_PROTOCOL } from '../edge/front-door';
import { CLIENT_MESSAGE_MAX_BYTES } from './v2/client-messages';
import { errorMessage } from './v2/server-messages';

/** The largest message a client may send before the frame is refused unread (ws maxPayload). */
export const STREAM_MAX_CLIENT_MESSAGE_BYTES = 1024;
/**
 * The largest frame a v2 socket reads: messages up to CLIENT_MESSAGE_MAX_BYTES are parsed, larger
 * ones up to this get an error and the socket stays open, beyond it the socket closes 1009.
 */
export const STREAM_V2_MAX_FRAME_BYTES = 8 * CLIENT_MESSAGE_MAX_BYTES;
/** After the server's close frame, how long a client has to answer it before the socket is reset. */
export const STREAM_CLOSE_TIMEOUT_MS = 1000;
/** Heartbeats in a row a client may leave unanswered; at the next one the socket is reset (spec 6.6). */
export const STREAM_MISSED_PONGS = 2;

const NO_MESSAGES = 'this stream takes no client messages; the connection is closed';
const NO_MESSAGES_REASON = 'client messages are not accepted';
/** ws's own close timer (the fallback behind ours, which resets instead of closing). */
const WS_CLOSE_TIMEOUT_MS = STREAM_CLOSE_TIMEOUT_MS + 1000;
const noop = (): void => undefined;
/** ws's method (untyped) that binds the socket with the receiver's limits. */
interface WsInternals {
  setSocket(this: WebSocket, socket: Socket, head: Buffer, options: Record<string, unknown>): void;
}

/** The options of the ws server that makes StreamSockets (made by the edge: bootstrap.ts hands them over). */
export const STREAM_SOCKET_OPTIONS = {
  maxPayload: STREAM_MAX_CLIENT_MESSAGE_BYTES,
  // Client text is never read, so it is not worth validating as UTF-8 either.
  skipUTF8Validation: true,
  perMessageDeflate: false,
  closeTimeout: WS_CLOSE_TIMEOUT_MS,
  // Pings are answered by StreamSocket itself: at most one pong owed at a time.
  autoPong: false,
} as const;

/**
 * A stream socket (the ws server's WebSocket class): the stream is one-way (spec 4.3), so any data
 * frame from the client gets the error frame and close 1008, and is never parsed. A frame over
 * STREAM_MAX_CLIENT_MESSAGE_BYTES is refused from its header, before its payload is read (ws
 * closes it as 1009; it is answered like any other message); a malformed frame gets the error
 * frame and ws's 1002.
 *
 * What the server owes a client is bounded whatever the client sends (docs/api.md "Limits"):
 * - pongs: a ping is answered once the pong before it has left for the kernel; pings that arrive
 *   meanwhile are answered by one pong carrying the newest payload (RFC 6455 5.5.3 allows it), so
 *   a client that pings and never reads is owed one pong, not one per ping;
 * - heartbeats: the server's ping carries a random token, and only a pong echoing it counts as an
 *   answer (an unsolicited pong does not); STREAM_MISSED_PONGS unanswered in a row reset it;
 * - route frames: the hub drops them above its unsent-bytes bound (subscriber.ts).
 * A socket the server gives up on (heartbeat, close timeout) is reset, so the kernel drops what
 * the client never read instead of holding it in an orphaned socket.
 */
export class StreamSocket extends WebSocket {
  private pongInFlight = false;
  private owedPong: Buffer | null = null;
  private heartbeat: Buffer | null = null;
  private missed = 0;
  private closeTimer: NodeJS.Timeout | null = null;
  /** A v2 socket's reader of client messages (stream/v2/session.ts); null on the one-way stream. */
  messages: ((data: Buffer, isBinary: boolean) => void) | null = null;
  private readonly pongSent = (): void => {
    this.pongInFlight = false;
    const owed = this.owedPong;
    this.owedPong = null;
    if (owed !== null) this.answerPing(owed);
  };

  // ws's server constructs it as `new WebSocket(null, undefined, serverOptions)`.
  constructor(...args: unknown[]) {
    super(...(args as [null]));
    // Client errors are answered with a close; an 'error' without a listener would throw.
    this.on('error', noop);
    this.on('message', (data: Buffer, isBinary: boolean) => {
      // While closing, what the client still sends is dropped; the close timer bounds how long.
      if (this.readyState !== WebSocket.OPEN) return;
      if (this.messages !== null) return this.messages(data, isBinary);
      this.send(errorFrame(NO_MESSAGES, 1008, NO_MESSAGES_REASON));
      this.close(1008, NO_MESSAGES_REASON);
    });
    this.on('ping', (data: Buffer) => this.answerPing(data));
    this.on('pong', (data: Buffer) => {
      if (this.heartbeat !== null && data.equals(this.heartbeat)) {
        this.heartbeat = null;
        this.missed = 0;
      }
    });
    this.once('close', () => {
      if (this.closeTimer !== null) clearTimeout(this.closeTimer);
    });
  }

  /**
   * One heartbeat: a socket that has left STREAM_MISSED_PONGS heartbeats in a row unanswered is
   * reset; otherwise a ping with a fresh token goes out. Returns false when the socket was reset.
   */
  beat(): boolean {
    if (this.readyState !== WebSocket.OPEN) return true;
    if (this.heartbeat !== null && ++this.missed >= STREAM_MISSED_PONGS) {
      this.terminate();
      return false;
    }
    this.heartbeat = randomBytes(8);
    this.ping(this.heartbeat);
    return true;
  }

  private answerPing(data: Buffer): void {
    if (this.readyState !== WebSocket.OPEN) return;
    if (this.pongInFlight) {
      this.owedPong = data;
      return;
    }
    this.pongInFlight = true;
    this.pong(data, false, this.pongSent);
  }

  /**
   * ws's server calls this after choosing the subprotocol: a v2 socket reads larger frames (its
   * messages are parsed), the one-way stream keeps refusing anything over 1 KiB from its header.
   */
  setSocket(socket: Socket, head: Buffer, options: Record<string, unknown>): void {
    const v2 = this.protocol === STREAM_V2_PROTOCOL;
    const opts = v2
      ? { ...options, maxPayload: STREAM_V2_MAX_FRAME_BYTES, skipUTF8Validation: false }
      : options;
    (WebSocket.prototype as unknown as WsInternals).setSocket.call(this, socket, head, opts);
  }

  /** ws's receiver closes with a bare code on a bad frame: the error frame goes out first. */
  override close(code?: number, data?: string | Buffer): void {
    this.armCloseTimer();
    if (data !== undefined || this.readyState !== WebSocket.OPEN) return super.close(code, data);
    if (this.messages !== null && (code === 1009 || code === 1002 || code === 1007)) {
      const message =
        code === 1009 ? `a frame is at most ${STREAM_V2_MAX_FRAME_BYTES} bytes` : 'malformed WebSocket frame';
      this.send(
        errorMessage({
          id: null,
          op: null,
          code: code === 1009 ? 'message_too_large' : 'bad_message',
          status: 400,
          message: `${message}; the connection is closed`,
        }),
      );
      return super.close(code, code === 1009 ? 'message too large' : 'protocol error');
    }
    if (code === 1009) {
      this.send(errorFrame(NO_MESSAGES, 1008, NO_MESSAGES_REASON));
      return super.close(1008, NO_MESSAGES_REASON);
    }
    if (code === 1002) {
      this.send(errorFrame('malformed WebSocket frame; the connection is closed', 1002, 'protocol error'));
      return super.close(1002, 'protocol error');
    }
    super.close(code, data);
  }

  /** Give up on the connection: reset it (RST), so unsent data is dropped by the kernel too. */
  override terminate(): void {
    const socket = (this as unknown as { _socket: Socket | null })._socket;
    if (socket !== null && !socket.destroyed) socket.resetAndDestroy();
    super.terminate();
  }

  /** A client that does not complete the closing handshake in time is reset, not left to linger. */
  private armCloseTimer(): void {
    if (this.closeTimer !== null || this.readyState === WebSocket.CLOSED) return;
    this.closeTimer = setTimeout(() => {
      if (this.readyState !== WebSocket.CLOSED) this.terminate();
    }, STREAM_CLOSE_TIMEOUT_MS);
    this.closeTimer.unref();
  }
}
