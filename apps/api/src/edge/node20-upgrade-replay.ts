import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/*
 * DELETE THIS FILE (and its one call in upgrades.ts) once package.json's engines.node admits only
 * Nodes whose HTTP server has the `shouldUpgradeCallback` option: added in Node 24.9.0 and
 * backported to 22.21.0 (nodejs/node#59824), i.e. `^22.21.0 || >=24.9.0` (23.x and 24.0-24.8
 * lack it). edge.ts already sets that option (only the stream's path is an upgrade); those Nodes
 * hand any other request with upgrade headers to the request handler, and never call this.
 *
 * Older Nodes (the floor today is 20.19) ignore the option and hand every request that carries
 * `Connection: Upgrade` to the 'upgrade' listeners. Those on a plain path are given back to the
 * HTTP parser here, so they are answered like any request (an h2c attempt gets an HTTP/1.1
 * answer). Later Nodes read an upgraded request's body into `req`, no longer into `head`, so this
 * replay would lose a POST's body there: it must not outlive the Nodes that need it.
 */

/** Headers that ask for a protocol switch; dropped when an upgrade is ignored. */
const UPGRADE_HEADERS = new Set(['upgrade', 'http2-settings']);

/**
 * Give an upgrade request on a plain path back to Node's HTTP parser without its upgrade headers:
 * its head (already validated by the parser, at most the header cap) is written out again in
 * front of whatever followed it, and the socket re-enters as a connection (Node documents
 * emitting `connection` to hand a server a socket; the connection budget knows it already and
 * does not count it twice).
 */
export function replayWithoutUpgrade(
  server: Server,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): void {
  const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (UPGRADE_HEADERS.has(lower)) continue;
    let value = raw[i + 1]!;
    if (lower === 'connection') {
      value = value
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '' && !UPGRADE_HEADERS.has(t.toLowerCase()))
        .join(', ');
      if (value === '') continue;
    }
    lines.push(`${name}: ${value}`);
  }
  socket.unshift(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  server.emit('connection', socket);
}
