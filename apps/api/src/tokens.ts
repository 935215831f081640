/** DI tokens for plain-object configuration. */
export const SERVER_CONFIG = Symbol('SERVER_CONFIG');
