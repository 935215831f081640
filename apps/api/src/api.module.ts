import { Module, type DynamicModule } from '@nestjs/common';
import type { ServerConfig } from '@app/config';
import { EventLog } from '@app/event-log';
import { Clock } from './clock';
import { BookFeed } from '@app/live-feed';
import { ClockSkew } from './health/clock-skew';
import { ReadyController } from './health/ready.controller';
import { ServiceStatus } from './health/service-status';
import { RequestGate } from './edge/request-gate';
import { Limits } from './limits/limits';
import { QuoteJournal, type OriginLog } from '@app/audit';
import { MarketController } from './market/market.controller';
import { MarketService } from './market/market.service';
import { ExplainController } from './route/explain.controller';
import { RouteController } from './route/route.controller';
import { RouteService } from './route/route.service';
import { StreamGateway } from './stream/stream.gateway';
import { StreamHub } from './stream/stream-hub';
import { KeysController } from './receipts/keys.controller';
import { TransparencyController } from './receipts/transparency.controller';
import type { ReceiptKeys } from './receipts/key-store';
import { RECEIPT_KEYS, SERVER_CONFIG, TRANSPARENCY_LOG } from './tokens';

/**
 * What the API needs from its host process: settings, the folded book feed, the clock, the event
 * log (asOf rebuilds read it) and the quote journal every served result is written to.
 */
export interface ApiDeps {
  readonly config: ServerConfig;
  readonly feed: BookFeed;
  readonly clock: Clock;
  readonly log: EventLog;
  readonly journal: QuoteJournal;
  /** The rate limit and the stream cap (in this process, or shared through Redis). */
  readonly limits: Limits;
  /** The edge's gate, made before Nest (edge/edge.ts): the stream hub asks it for client addresses. */
  readonly gate: RequestGate;
  /** The key that signs this origin's receipts and checkpoints, and the keys /keys lists. */
  readonly receiptKeys: ReceiptKeys;
  /** The origin's transparency log, null with RECEIPTS off. */
  readonly tlog: OriginLog | null;
}

@Module({})
export class ApiModule {
  static forRoot(deps: ApiDeps): DynamicModule {
    return {
      module: ApiModule,
      controllers: [
        ExplainController,
        RouteController,
        MarketController,
        ReadyController,
        KeysController,
        TransparencyController,
      ],
      providers: [
        { provide: SERVER_CONFIG, useValue: deps.config },
        { provide: BookFeed, useValue: deps.feed },
        { provide: Clock, useValue: deps.clock },
        { provide: EventLog, useValue: deps.log },
        { provide: QuoteJournal, useValue: deps.journal },
        { provide: Limits, useValue: deps.limits },
        { provide: RequestGate, useValue: deps.gate },
        { provide: RECEIPT_KEYS, useValue: deps.receiptKeys },
        { provide: TRANSPARENCY_LOG, useValue: deps.tlog },
        RouteService,
        MarketService,
        ClockSkew,
        ServiceStatus,
        StreamHub,
        StreamGateway,
      ],
    };
  }
}
