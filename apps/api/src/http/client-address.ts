import { isIPv4 } from 'node:net';

const MAPPED = '::ffff:';

/**
 * The client's IPv4 address, or null when it is not IPv4 (spec 5.3; clarifications 10). The
 * socket's peer is the client unless it is a configured trusted proxy, in which case the
 * rightmost untrusted x-forwarded-for entry is. `::ffff:a.b.c.d` counts as a.b.c.d.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: ReadonlySet<string>,
): string | null {
  let address = unmapped(peer ?? '');
  if (trusted.size > 0 && trusted.has(address) && forwardedFor !== undefined) {
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
      .split(',')
      .map((h) => unmapped(h.trim()));
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!;
      address = hop;
      if (!trusted.has(hop)) break;
    }
  }
  return isIPv4(address) ? address : null;
}

/** `::ffff:a.b.c.d` as a.b.c.d; any other address as it is. */
export function unmapped(address: string): string {
  return address.toLowerCase().startsWith(MAPPED) && isIPv4(address.slice(MAPPED.length))
    ? address.slice(MAPPED.length)
    : address;
}
