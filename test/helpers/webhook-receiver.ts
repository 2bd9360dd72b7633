import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedRequest = { path: string; headers: IncomingHttpHeaders; body: string };

/**
 * A real HTTP receiver on 127.0.0.1 that records every request. `answers` are the statuses of the
 * next requests, in order (then 204); 'hang' never answers; a 3xx carries a Location to /moved.
 */
export async function startWebhookReceiver() {
  const received: ReceivedRequest[] = [];
  const answers: (number | 'hang')[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  const watching: {
    match: (r: ReceivedRequest) => boolean;
    resolve: (r: ReceivedRequest) => void;
  }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      for (const w of waiting.filter((w) => received.length >= w.count)) w.resolve();
      const last = received.at(-1) as ReceivedRequest;
      for (const w of watching.filter((w) => w.match(last))) w.resolve(last);
      const answer = answers.shift() ?? 204;
      if (answer === 'hang') return;
      if (answer >= 300 && answer < 400) response.setHeader('location', '/moved');
      response.statusCode = answer;
      response.end(answer === 204 ? undefined : 'answer');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    answers,
    /** Resolves once `count` requests have arrived in all. */
    receivedCount(count: number): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ count, resolve }));
    },
    /**
     * Resolves with the first request, from the `from`-th on, that `match` accepts: a test waiting
     * for one event is not fooled by a retry of an earlier one arriving first.
     */
    receivedMatching(match: (r: ReceivedRequest) => boolean, from = 0): Promise<ReceivedRequest> {
      const already = received.slice(from).find(match);
      if (already !== undefined) return Promise.resolve(already);
      return new Promise((resolve) => watching.push({ match, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
