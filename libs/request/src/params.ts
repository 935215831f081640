import type { RouteMode } from './defaults';
import {
  acceptedModes,
  declaredParams,
  numberRange,
  type NumberRange,
  type ParamDeclaration,
} from './param-decorators';
import { RouteParamsDto, type RouteParamName } from './route-params-dto';

/** What the DTO declares about one parameter, gathered for the scanners and the documents. */
export interface DeclaredParam extends ParamDeclaration {
  readonly name: RouteParamName;
  /** The entry points that take it (AcceptedIn; all when it says nothing). */
  readonly modes: readonly RouteMode[];
}

/** The parameters of RouteParamsDto in declaration order (the spec's), read from its decorators. */
export const DECLARED_PARAMS: readonly DeclaredParam[] = Object.freeze(
  declaredParams(RouteParamsDto).map((p) => ({
    ...p,
    name: p.name as RouteParamName,
    modes: acceptedModes(RouteParamsDto, p.name),
  })),
);

/** Every parameter GET /route, POST /route, the stream and backtest schedules know. */
export const ROUTE_PARAM_NAMES: readonly RouteParamName[] = Object.freeze(DECLARED_PARAMS.map((p) => p.name));

const BY_NAME: ReadonlyMap<string, DeclaredParam> = new Map(DECLARED_PARAMS.map((p) => [p.name, p]));

/** The declaration of parameter `name`, or undefined for a name the DTO does not have. */
export function declaredParam(name: string): DeclaredParam | undefined {
  return BY_NAME.get(name);
}

/** The range of a number parameter, as its constraints state it. */
export function paramRange(name: RouteParamName): NumberRange {
  return numberRange(RouteParamsDto, name);
}
