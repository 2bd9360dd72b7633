import { type ChildProcess, fork } from 'node:child_process';
import type { FromServer, ServerConfig, ToServer } from './protocol.ts';

type Ready = Extract<FromServer, { type: 'ready' }>;

/** The server process of one backend, driven over IPC (see server.ts). */
export class ServerProcess {
  private readonly pending: {
    type: ToServer['type'];
    resolve: () => void;
    reject: (e: Error) => void;
  }[] = [];
  private failure: Error | null = null;

  private constructor(
    readonly child: ChildProcess,
    readonly ready: Promise<Ready>,
  ) {}

  get pid(): number {
    return this.child.pid ?? -1;
  }

  static start(config: ServerConfig, onProgress: (line: string) => void): ServerProcess {
    const child = fork(new URL('./server.ts', import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BENCH_SERVER: JSON.stringify(config) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let onReady: (ready: Ready) => void = () => {};
    let onFail: (error: Error) => void = () => {};
    const ready = new Promise<Ready>((resolve, reject) => {
      onReady = resolve;
      onFail = reject;
    });
    const server = new ServerProcess(child, ready);
    const fail = (error: Error) => {
      server.failure = error;
      onFail(error);
      for (const waiter of server.pending.splice(0)) waiter.reject(error);
    };
    child.on('message', (message: FromServer) => {
      switch (message.type) {
        case 'ready':
          onReady(message);
          break;
        case 'progress':
          onProgress(message.line);
          break;
        case 'done': {
          const index = server.pending.findIndex((w) => w.type === message.request);
          const [waiter] = index >= 0 ? server.pending.splice(index, 1) : [];
          waiter?.resolve();
          break;
        }
        case 'failed':
          fail(new Error(`server process: ${message.message}`));
          break;
      }
    });
    child.on('exit', (code, signal) => {
      fail(new Error(`server process exited (${signal ?? `status ${code}`})`));
    });
    // A failure before anyone awaits `ready` must not become an unhandled rejection.
    ready.catch(() => {});
    return server;
  }

  send(message: ToServer): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.push({ type: message.type, resolve, reject });
      this.child.send(message);
    });
  }

  /** Graceful stop; kills the process if it does not stop within 15 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    try {
      await this.send({ type: 'stop' }).catch(() => this.child.kill('SIGKILL'));
      await exited;
    } finally {
      clearTimeout(timer);
    }
  }

  kill() {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
