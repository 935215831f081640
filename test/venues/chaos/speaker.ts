import type { Level, ServedBook } from './books';

/** A market the mock lists (the `markets` injected into ccxt are built from these). */
export interface SpeakerMarket {
  /** The venue's market id (what its subscribe messages carry). */
  readonly id: string;
  readonly base: string;
  readonly quote: string;
  /** Extra fields of ccxt's market structure the venue's pro class reads (info, ids, ...). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** One market's served state: its current levels and the sequence the venue stamps on changes. */
export interface MarketState {
  readonly market: SpeakerMarket;
  book: ServedBook;
  seq: number;
}

/** What a speaker may ask of the mock venue it speaks for. */
export interface VenueView {
  /** The market state of `id` (speakers read and stamp sequences through it). */
  state(id: string): MarketState;
  /** A full book for a REST snapshot or a first ws book, shaped by the venue's fault. */
  firstBook(id: string, first: boolean): ServedBook;
  /** The local server's websocket base (a venue that hands out its socket URL over REST). */
  readonly ws: string;
}

/** One websocket connection to the mock. */
export interface Session {
  readonly path: string;
  readonly venue: VenueView;
  /** Per-connection state the speaker keeps (channel ids, ...). */
  readonly data: Record<string, unknown>;
  /** Send a frame (objects are JSON-encoded, then compressed if the venue does). */
  send(frame: unknown): void;
  /** The client subscribed to these market ids: the server serves them according to its fault. */
  subscribe(ids: readonly string[]): void;
  /** The client unsubscribed these market ids: nothing more is sent for them on this connection. */
  unsubscribe(ids: readonly string[]): void;
  /**
   * The whole book this connection is served for `id` now: the venue's, or the bad first book it
   * got while the fault lasts (a venue that pushes whole books keeps pushing the bad one).
   */
  book(id: string): ServedBook;
}

export interface RestRequest {
  readonly method: string;
  readonly url: URL;
  readonly body: string;
}

export interface RestReply {
  readonly status?: number;
  readonly body: unknown;
}

/** The URLs of the local server a speaker points ccxt at. */
export interface LocalUrls {
  readonly http: string;
  readonly ws: string;
  readonly venue: VenueView;
}

/**
 * One venue's protocol, as much of it as ccxt's pro class needs for order books: written from the
 * pinned ccxt source (node_modules/ccxt/js/src/pro/<id>.js) and the venue's documentation.
 */
export interface Speaker {
  /** ccxt id. */
  readonly id: string;
  readonly markets: readonly SpeakerMarket[];
  /** Frames are compressed (a venue that sends binary gzip or raw deflate). */
  readonly binary?: 'gzip' | 'deflate';
  /** ccxt constructor options pointing every ws and REST URL of the venue at the local server. */
  ccxt(urls: LocalUrls): Record<string, unknown>;
  /** A frame from the client (parsed JSON, or the text when it is not JSON). */
  onFrame(session: Session, msg: unknown, text: string): void;
  /** Sent when a connection opens (a welcome frame, ...). */
  onConnection?(session: Session): void;
  /** The frames that carry a whole book (the first book after subscribing). */
  snapshot(session: Session, id: string, book: ServedBook): unknown[];
  /** The frames that carry a change of some levels (amount 0 removes one). */
  delta(session: Session, id: string, change: { readonly bids: Level[]; readonly asks: Level[] }): unknown[];
  /** REST routes the pro class calls (snapshots, tokens); undefined = 404. */
  rest?(req: RestRequest, venue: VenueView): RestReply | undefined;
}
