import WebSocket from 'ws';
import { errorFrame } from './frames';

/** The largest message a client may send before the frame is refused unread (ws maxPayload). */
export const STREAM_MAX_CLIENT_MESSAGE_BYTES = 1024;
/** After the server's close frame, how long a client has to answer it before the socket is cut. */
export const STREAM_CLOSE_TIMEOUT_MS = 1000;

const NO_MESSAGES = 'this stream takes no client messages; the connection is closed';
const NO_MESSAGES_REASON = 'client messages are not accepted';
const noop = (): void => undefined;

/**
 * A stream socket (the ws server's WebSocket class): the stream is one-way (spec 4.3), so any data
 * frame from the client gets the error frame and close 1008, and is never parsed. A frame over
 * STREAM_MAX_CLIENT_MESSAGE_BYTES is refused from its header, before its payload is read (ws
 * closes it as 1009; it is answered like any other message); a malformed frame gets the error
 * frame and ws's 1002.
 */
export class StreamSocket extends WebSocket {
  // ws's server constructs it as `new WebSocket(null, undefined, serverOptions)`.
  constructor(...args: unknown[]) {
    super(...(args as [null]));
    // Client errors are answered with a close; an 'error' without a listener would throw.
    this.on('error', noop);
    this.on('message', () => {
      // While closing, what the client still sends is dropped; closeTimeout bounds how long.
      if (this.readyState !== WebSocket.OPEN) return;
      this.send(errorFrame(NO_MESSAGES, 1008, NO_MESSAGES_REASON));
      super.close(1008, NO_MESSAGES_REASON);
    });
  }

  /** ws's receiver closes with a bare code on a bad frame: the error frame goes out first. */
  override close(code?: number, data?: string | Buffer): void {
    if (data !== undefined || this.readyState !== WebSocket.OPEN) return super.close(code, data);
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
}
