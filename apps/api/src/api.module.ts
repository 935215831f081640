import { Module, type DynamicModule } from '@nestjs/common';
import type { ServerConfig } from '@app/config';
import { Clock } from './clock';
import { BookFeed } from './feed/book-feed';
import { RequestGate } from './http/request-gate';
import { MarketController } from './market/market.controller';
import { MarketService } from './market/market.service';
import { RouteController } from './route/route.controller';
import { RouteService } from './route/route.service';
import { StreamGateway } from './stream/stream.gateway';
import { StreamHub } from './stream/stream-hub';
import { SERVER_CONFIG } from './tokens';

/** What the API needs from its host process: settings, the folded book feed and the clock. */
export interface ApiDeps {
  readonly config: ServerConfig;
  readonly feed: BookFeed;
  readonly clock: Clock;
}

@Module({})
export class ApiModule {
  static forRoot(deps: ApiDeps): DynamicModule {
    return {
      module: ApiModule,
      controllers: [RouteController, MarketController],
      providers: [
        { provide: SERVER_CONFIG, useValue: deps.config },
        { provide: BookFeed, useValue: deps.feed },
        { provide: Clock, useValue: deps.clock },
        RequestGate,
        RouteService,
        MarketService,
        StreamHub,
        StreamGateway,
      ],
    };
  }
}
