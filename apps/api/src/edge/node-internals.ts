import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/*
 * The one place the edge leans on how Node's HTTP server works inside rather than on its
 * documented surface. Both uses have stood since Node 0.x and are what Node's own code relies on;
 * a Node upgrade that moves them shows up in the hostile tests (shedding, timeouts, pipelining).
 */

/** A listener Node's HTTP server put on `connection` (it sets up the HTTP parser on the socket). */
export type ConnectionListener = (this: Server, socket: Socket) => void;

/**
 * The response in flight on a server socket, if any: `socket._httpMessage`, the oldest response
 * of the connection not yet finished, which is what Node's own default `clientError` handling
 * checks. Node gives no public way to ask a socket for it.
 */
export function inFlightResponse(socket: Socket | Duplex): ServerResponse | undefined {
  return (socket as { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

/**
 * Take Node's own `connection` listeners off `server` (the HTTP parser's setup) and hand them
 * back, so the caller decides which sockets reach them: a connection refused before then is
 * never parsed. The caller calls them, with `server` as `this`, for each socket it admits.
 */
export function takeParserSetup(server: Server): readonly ConnectionListener[] {
  const listeners = server.listeners('connection') as ConnectionListener[];
  server.removeAllListeners('connection');
  return listeners;
}
