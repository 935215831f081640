import { Logger } from '@nestjs/common';
import type { ServerConfig } from '@app/config';
import { localLimits, type Limits } from './limits';
import { RedisLimits } from './redis-limits';

/** The limits a server runs with: shared through Redis with REDIS_URL, else in this process. */
export function limitsFor(config: ServerConfig): Limits {
  const url = config.redisUrl;
  if (url === null) return localLimits(config.rateLimitRps, config.streamMaxPerIp);
  return new RedisLimits({
    url,
    rateLimitRps: config.rateLimitRps,
    streamMaxPerIp: config.streamMaxPerIp,
    logger: new Logger('SharedLimits'),
  });
}
