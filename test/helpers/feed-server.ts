import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, createServer as createNetServer, type Socket } from 'node:net';
import yazl from 'yazl';

/**
 * A local copy of a register feed for the sync tests, in both listing formats: an HTML directory
 * listing at /feed/ with links to files, and the JSON the USPTO Open Data Portal's API gives for a
 * product at /api/v1/datasets/products/TRTDXFAP, whose file URIs
 * (/api/v1/datasets/products/files/TRTDXFAP/YYYY/NAME, as the portal's look) lead to the same
 * files. Each file is served as its behaviour says. Every request is counted per path, and the
 * X-API-KEY header it carried is kept.
 */
export type FileBehaviour =
  | { kind: 'file'; body: Buffer }
  /** Answers `status` (and no file). */
  | { kind: 'status'; status: number }
  /** Declares the whole length, sends the first `sent` bytes, then closes the connection. */
  | { kind: 'cut'; body: Buffer; sent: number }
  /** Sends the headers and the first `sent` bytes, then nothing more (the connection stays open). */
  | { kind: 'stall'; body: Buffer; sent: number }
  /** Answers 503 the first `times` requests, then serves the file. */
  | { kind: 'flaky'; body: Buffer; times: number }
  /** Reads the request and never answers: no status line, no headers. */
  | { kind: 'silent' }
  /** Declares the whole length and sends `chunk` bytes every `everyMs` (a slow link). */
  | { kind: 'slow'; body: Buffer; chunk: number; everyMs: number }

  /** Answers 302 to `location`. */
  | { kind: 'redirect'; location: string };

export type FeedServer = {
  /** The listing's URL (ends with /feed/). */
  url: string;
  /** The URL of the JSON listing shaped as the Open Data Portal's product answer. */
  odpUrl: string;
  files: Map<string, FileBehaviour>;
  /** Links the listing shows besides the files (relative or absolute). */
  extraLinks: string[];
  /** When set, the listing links to each file with an absolute URL instead of a relative one. */
  absoluteLinks: boolean;
  /** When set, the listing answers this status (and no listing): an office's outage. */
  listingStatus: number | null;
  /** Bytes of file bodies sent so far, over all requests. */
  bytesSent(): number;
  requests(path: string): number;
  /** The X-API-KEY header of each request of a path, in order (undefined: none sent). */
  apiKeys(path: string): (string | undefined)[];
  /** Forgets the files, links and request counts of an earlier test. */
  reset(): void;
  close(): Promise<void>;
};

function serve(
  response: ServerResponse,
  behaviour: FileBehaviour,
  count: number,
  sent: (bytes: number) => void,
) {
  switch (behaviour.kind) {
    case 'file':
      response.writeHead(200, { 'content-type': 'application/zip' }).end(behaviour.body);
      sent(behaviour.body.length);
      return;
    case 'status':
      response.writeHead(behaviour.status).end('no such file');
      return;
    case 'cut':
      response.writeHead(200, { 'content-length': String(behaviour.body.length) });
      response.write(behaviour.body.subarray(0, behaviour.sent), () => response.destroy());
      return;
    case 'stall':
      response.writeHead(200, { 'content-length': String(behaviour.body.length) });
      response.write(behaviour.body.subarray(0, behaviour.sent));
      return;
    case 'flaky':
      if (count <= behaviour.times) response.writeHead(503).end('try later');
      else response.writeHead(200).end(behaviour.body);
      return;
    case 'silent':
      return;
    case 'slow': {
      const { body, chunk, everyMs } = behaviour;
      response.writeHead(200, { 'content-length': String(body.length) });
      let at = 0;
      const timer = setInterval(() => {
        const piece = body.subarray(at, at + chunk);
        at += piece.length;
        sent(piece.length);
        if (at >= body.length) {
          clearInterval(timer);
          response.end(piece);
        } else response.write(piece);
      }, everyMs);
      response.on('close', () => clearInterval(timer));
      return;
    }
    case 'redirect':
      response.writeHead(302, { location: behaviour.location }).end();
      return;
  }
}

export const ODP_PRODUCT_PATH = '/api/v1/datasets/products/TRTDXFAP';
const ODP_FILES = /^\/api\/v1\/datasets\/products\/files\/TRTDXFAP\/\d{4}\/([^/]+)$/;

/** A file entry as the portal lists it (field names of its product answer). */
function odpEntry(name: string, uri: string, size: number) {
  const day = /^apc(\d{2})(\d{2})(\d{2})\.zip$/.exec(name);
  const date = day ? `20${day[1]}-${day[2]}-${day[3]}` : '2026-01-01';
  return {
    fileName: name,
    fileSize: size,
    fileDataFromDate: date,
    fileDataToDate: date,
    fileTypeText: 'Data',
    fileDownloadURI: uri,
    fileReleaseDate: `${date} 00:02:57`,
    fileLastModifiedDateTime: `${date} 00:02:59`,
  };
}

export async function startFeedServer(): Promise<FeedServer> {
  const counts = new Map<string, number>();
  const keys = new Map<string, (string | undefined)[]>();
  const open = new Set<ServerResponse>();
  const state = {
    files: new Map<string, FileBehaviour>(),
    extraLinks: [] as string[],
    absoluteLinks: false,
    listingStatus: null as number | null,
    bytesSent: 0,
  };
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const count = (counts.get(path) ?? 0) + 1;
    counts.set(path, count);
    const key = request.headers['x-api-key'];
    keys.set(path, [...(keys.get(path) ?? []), Array.isArray(key) ? key.join(',') : key]);
    open.add(response);
    response.on('close', () => open.delete(response));
    if (path === '/feed/' && state.listingStatus !== null) {
      response.writeHead(state.listingStatus).end('unavailable');
      return;
    }
    if (path === '/feed/') {
      const base = state.absoluteLinks ? `${url}` : '';
      const links = [
        '<a href="../">Parent Directory</a>',
        '<a href="?C=M;O=A">Last modified</a>',
        ...state.extraLinks.map((href) => `<a href="${href}">${href}</a>`),
        ...[...state.files.keys()].map((name) => `<a href="${base}${name}">${name}</a>`),
      ];
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<html><body><h1>Index of /feed</h1><pre>${links.join('\n')}</pre></body></html>`);
      return;
    }
    if (path === ODP_PRODUCT_PATH) {
      // Newest first, as the portal lists them; extra links are entries of other names.
      const origin = url.replace(/\/feed\/$/, '');
      const entries = [...state.files.entries()].reverse().map(([name, behaviour]) => {
        const year = `20${name.slice(3, 5)}`;
        const uri = `${origin}/api/v1/datasets/products/files/TRTDXFAP/${year}/${name}`;
        return odpEntry(name, uri, 'body' in behaviour ? behaviour.body.length : 0);
      });
      for (const href of state.extraLinks) {
        entries.push(odpEntry(href.slice(href.lastIndexOf('/') + 1), href, 0));
      }
      const product = {
        productIdentifier: 'TRTDXFAP',
        productTitleText: 'Trademark Full Text XML Data (No Images) – Daily Applications',
        productFrequencyText: 'DAILY',
        productFileTotalQuantity: entries.length,
        productFileBag: { count: entries.length, fileDataBag: entries },
      };
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ count: 1, bulkDataProductBag: [product] }));
      return;
    }
    const name = ODP_FILES.exec(path)?.[1] ?? path.replace(/^\/feed\//, '');
    const behaviour = state.files.get(name);
    if (!behaviour) {
      response.writeHead(404).end();
      return;
    }
    serve(response, behaviour, count, (bytes) => {
      state.bytesSent += bytes;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed/`;
  return {
    url,
    odpUrl: url.replace(/\/feed\/$/, ODP_PRODUCT_PATH),
    get files() {
      return state.files;
    },
    get extraLinks() {
      return state.extraLinks;
    },
    set extraLinks(value: string[]) {
      state.extraLinks = value;
    },
    get absoluteLinks() {
      return state.absoluteLinks;
    },
    set absoluteLinks(value: boolean) {
      state.absoluteLinks = value;
    },
    get listingStatus() {
      return state.listingStatus;
    },
    set listingStatus(value: number | null) {
      state.listingStatus = value;
    },
    bytesSent: () => state.bytesSent,
    requests: (path) => counts.get(path) ?? 0,
    apiKeys: (path) => keys.get(path) ?? [],
    reset() {
      counts.clear();
      keys.clear();
      state.files.clear();
      state.extraLinks = [];
      state.absoluteLinks = false;
      state.listingStatus = null;
      state.bytesSent = 0;
    },
    async close() {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A zip archive of the given files (name → path of its content), as an office's file is. */
export function zipOf(entries: Record<string, string>, options: { compress?: boolean } = {}) {
  const contents = Object.entries(entries).map(
    ([name, path]) => [name, readFileSync(path)] as const,
  );
  return zipOfBuffers(Object.fromEntries(contents), options);
}

/** A zip archive of the given contents (name → bytes). */
export function zipOfBuffers(
  entries: Record<string, Buffer>,
  options: { compress?: boolean } = {},
) {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) {
    if (name.endsWith('/')) zip.addEmptyDirectory(name);
    else zip.addBuffer(content, name, { compress: options.compress ?? true });
  }
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise<Buffer>((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/**
 * An address where a TCP connection is never established: a listening socket whose accept queue is
 * full. The listener lives in a child process that never accepts (its event loop is blocked), and
 * connections are opened until one hangs: Linux then drops further SYNs instead of refusing them,
 * so a client's connect waits, which is what an office's overloaded or filtered server does.
 */
export async function startUnacceptingListener(): Promise<{ url: string; close(): void }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const server = require('node:net').createServer();
       server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
         process.stdout.write(server.address().port + '\\n');
         Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
       });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (data: Buffer) => resolve(Number(String(data).trim())));
    child.once('error', reject);
  });
  const sockets: Socket[] = [];
  const close = () => {
    for (const socket of sockets) socket.destroy();
    child.kill('SIGKILL');
  };
  for (let i = 0; i < 16; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    sockets.push(socket);
    const connected = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 200);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!connected) return { url: `http://127.0.0.1:${port}/feed/`, close };
  }
  close();
  throw new Error('the listener kept accepting connections: its accept queue never filled');
}

/** A port of this machine where nothing listens: connections to it are refused at once. */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
