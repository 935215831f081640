import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

/**
 * Every error answers `{error: string}` (spec 7), including Fastify's own failures before the
 * handler (body over 64 KiB, malformed JSON, unsupported media type) and unknown paths.
 */
@Catch()
export class ErrorBodyFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    let status = 500;
    let message = 'internal error';
    if (exception instanceof HttpException) {
      status = exception.getStatus();
      message = exception.message;
    } else if (isStatusError(exception)) {
      status = exception.statusCode;
      message = exception.message;
    }
    void reply.status(status).send({ error: message });
  }
}

function isStatusError(e: unknown): e is { statusCode: number; message: string } {
  if (typeof e !== 'object' || e === null) return false;
  const { statusCode, message } = e as { statusCode?: unknown; message?: unknown };
  return (
    typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500 && typeof message === 'string'
  );
}
