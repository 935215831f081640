import { deepFreeze } from '@app/config';
import type { ParamsParse } from '@app/request';

/** Longest query string worth remembering (longer ones are parsed every time). */
const MAX_KEY_LENGTH = 1024;

/**
 * Recent parses of GET /route query strings. parseRouteQuery is a pure function of the query
 * string, and clients re-quoting the same conversion send the same one, so a hit skips the
 * scanners and the class-validator pass over the route-request DTO (for a typical query about
 * 10 us and 35 KB of short-lived objects, most of them class-validator's: BENCHMARKS.md, scenario
 * `request`). Entries are deep-frozen: every request built from one shares its arrays. Bounded:
 * the oldest entry goes first.
 */
export class ParamsCache {
  private readonly entries = new Map<string, ParamsParse>();

  constructor(private readonly capacity = 256) {}

  /** The parse of `query`, from the cache or from `parse()` (then remembered). */
  get(query: string, parse: () => ParamsParse): ParamsParse {
    const hit = this.entries.get(query);
    if (hit !== undefined) return hit;
    const parsed = parse();
    if (query.length > MAX_KEY_LENGTH || this.capacity <= 0) return parsed;
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(query, deepFreeze(parsed));
    return parsed;
  }

  get size(): number {
    return this.entries.size;
  }
}
