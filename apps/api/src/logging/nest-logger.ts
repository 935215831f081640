import type { LoggerService } from '@nestjs/common';
import type { ServiceLogger } from '@app/telemetry';

/** Nest's own start-up chatter (modules, routes, gateways): debug lines, not the console's. */
const FRAMEWORK = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
  'WebSocketsController',
]);

/**
 * Nest's LoggerService over the service logger, so Nest's lines and our components' `new
 * Logger(context)` lines are the same JSON (or pretty) lines as everything else, with the
 * context as `component`.
 */
export class NestLogger implements LoggerService {
  constructor(private readonly logger: ServiceLogger) {}

  log(message: unknown, ...rest: unknown[]): void {
    const { text, component } = split(message, rest);
    if (component !== undefined && FRAMEWORK.has(component)) this.logger.debug(text, { component });
    else this.logger.info(text, fields(component));
  }

  error(message: unknown, ...rest: unknown[]): void {
    // Nest passes (message, stack, context) for errors.
    const { text, component, extra } = split(message, rest);
    const stack = extra.find((x): x is string => typeof x === 'string');
    this.logger.error(text, { ...fields(component), ...(stack === undefined ? {} : { stack }) });
  }

  warn(message: unknown, ...rest: unknown[]): void {
    const { text, component } = split(message, rest);
    this.logger.warn(text, fields(component));
  }

  debug(message: unknown, ...rest: unknown[]): void {
    const { text, component } = split(message, rest);
    this.logger.debug(text, fields(component));
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.debug(message, ...rest);
  }
}

function fields(component: string | undefined): Record<string, string> {
  return component === undefined ? {} : { component };
}

/** Nest appends the context as the last string argument. */
function split(
  message: unknown,
  rest: readonly unknown[],
): { text: string; component: string | undefined; extra: unknown[] } {
  const extra = [...rest];
  const last = extra[extra.length - 1];
  const component = typeof last === 'string' ? (extra.pop() as string) : undefined;
  const text =
    typeof message === 'string'
      ? message
      : message instanceof Error
        ? (message.stack ?? message.message)
        : JSON.stringify(message);
  return { text, component, extra };
}
