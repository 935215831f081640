/** The stream benches' requests and client addresses. */

/** The i-th distinct stream request: half USDT->BTC, half BTC->USDT, each with its own amount. */
export function floodQuery(i: number): string {
  const [from, to] = i % 2 === 0 ? ['USDT', 'BTC'] : ['BTC', 'USDT'];
  const amount = i % 2 === 0 ? 5_000 + i * 100 : 0.1 + i * 0.01;
  return `from=${from}&to=${to}&amountIn=${amount}&strategy=split_optimal&bridges=`;
}

/** The a-th loopback address of a flood (127.0.3.1 ... 127.0.3.250, 127.0.4.1, ...). */
export function floodAddress(a: number): string {
  return `127.0.${3 + Math.floor(a / 250)}.${1 + (a % 250)}`;
}
