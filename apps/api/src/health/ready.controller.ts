import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Readiness } from '../docs/schemas';
import { ServiceStatus } from './service-status';

/** GET /ready: 200 when the service takes traffic, 503 while starting or stopping (docs/deploy.md). */
@Controller()
export class ReadyController {
  constructor(@Inject(ServiceStatus) private readonly serviceStatus: ServiceStatus) {}

  @Get('ready')
  ready(@Res({ passthrough: true }) reply: FastifyReply): Readiness {
    const readiness = this.serviceStatus.readiness();
    if (!readiness.ready) void reply.status(503).header('retry-after', '1');
    return readiness;
  }
}
