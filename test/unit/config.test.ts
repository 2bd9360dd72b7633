import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

/** The error loadConfig throws for an environment, asserting that it throws one. */
function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error;
  }
  assert.fail('expected a ConfigError');
}

describe('loadConfig', () => {
  it('an empty environment gives the documented defaults', () => {
    assert.deepEqual(loadConfig({}), {
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      databaseReplicaUrl: undefined,
      replicaMaxLagSeconds: 30,
      dataDir: './data',
      redisUrl: undefined,
      smtpUrl: undefined,
      scheduler: true,
      rateLimitPerMinute: 60,
      logLevel: 'info',
      logLevelSet: false,
      publicUrl: 'http://localhost:3000',
      publicUrlSet: false,
      mailFrom: 'Trademark Watch <alerts@trademark-watch.invalid>',
      trustProxy: false,
      requestTimeoutMs: 30_000,
      maxConnections: 1000,
      statementTimeoutMs: 1500,
      failedAuthPerMinute: 300,
      scanLeaseSeconds: 300,
      scanPollSeconds: 5,
      alertListCacheBytes: 64 * 1024 * 1024,
      webhookAllowPrivateUrls: false,
      registerSyncAt: '06:00',
      registerFeeds: [],
      usptoApiKey: undefined,
      euipoClientId: undefined,
      euipoClientSecret: undefined,
      euipoEnvironment: 'production',
      euipoTokenUrl: undefined,
      registerMaxEntryBytes: 2048 * 1024 * 1024,
      registerMaxUnzippedBytes: 20_480 * 1024 * 1024,
    });
  });

  it('reads every variable it knows', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u@db:5432/tmw',
      DATABASE_REPLICA_URL: 'postgres://u@standby:5432/tmw',
      DATABASE_REPLICA_MAX_LAG_SECONDS: '2.5',
      DATA_DIR: '/var/lib/tmw',
      REDIS_URL: 'redis://cache:6379',
      SMTP_URL: 'smtp://mail:25',
      SCHEDULER: 'off',
      RATE_LIMIT_PER_MINUTE: '120',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'https://watch.example.com/',
      SCAN_LEASE_SECONDS: '30',
      SCAN_POLL_SECONDS: '0.5',
      ALERT_LIST_CACHE_MB: '16',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      REGISTER_SYNC_AT: '23:05',
      REGISTER_FEEDS: 'uspto-daily',
      MAIL_FROM: 'Acme Watch <tm@acme.example>',
      TRUST_PROXY: 'true',
      REQUEST_TIMEOUT_SECONDS: '12.5',
      MAX_CONNECTIONS: '200',
      DATABASE_STATEMENT_TIMEOUT_SECONDS: '0.75',
      FAILED_AUTH_PER_MINUTE: '50',
      USPTO_API_KEY: 'odp-key-0123',
      EUIPO_CLIENT_ID: 'euipo-client',
      EUIPO_CLIENT_SECRET: 'euipo-secret',
      EUIPO_ENVIRONMENT: 'sandbox',
      EUIPO_TOKEN_URL: 'https://auth.example/oidc/accessToken',
      REGISTER_MAX_ENTRY_MB: '64',
      REGISTER_MAX_UNZIPPED_MB: '512',
    });
    assert.deepEqual(config, {
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u@db:5432/tmw',
      databaseReplicaUrl: 'postgres://u@standby:5432/tmw',
      replicaMaxLagSeconds: 2.5,
      dataDir: '/var/lib/tmw',
      redisUrl: 'redis://cache:6379',
      smtpUrl: 'smtp://mail:25',
      scheduler: false,
      rateLimitPerMinute: 120,
      logLevel: 'warn',
      logLevelSet: true,
      publicUrl: 'https://watch.example.com',
      publicUrlSet: true,
      mailFrom: 'Acme Watch <tm@acme.example>',
      trustProxy: true,
      requestTimeoutMs: 12_500,
      maxConnections: 200,
      statementTimeoutMs: 750,
      failedAuthPerMinute: 50,
      scanLeaseSeconds: 30,
      scanPollSeconds: 0.5,
      alertListCacheBytes: 16 * 1024 * 1024,
      webhookAllowPrivateUrls: true,
      registerSyncAt: '23:05',
      registerFeeds: [{ name: 'uspto-daily', url: undefined }],
      usptoApiKey: 'odp-key-0123',
      euipoClientId: 'euipo-client',
      euipoClientSecret: 'euipo-secret',
      euipoEnvironment: 'sandbox',
      euipoTokenUrl: 'https://auth.example/oidc/accessToken',
      registerMaxEntryBytes: 64 * 1024 * 1024,
      registerMaxUnzippedBytes: 512 * 1024 * 1024,
    });
  });

  it('an empty value counts as unset', () => {
    assert.equal(loadConfig({ PORT: '', DATABASE_URL: '' }).port, 3000);
    assert.equal(loadConfig({ DATABASE_URL: '' }).databaseUrl, undefined);
  });

  it('ALERT_LIST_CACHE_MB=0 turns the alert page cache off', () => {
    assert.equal(loadConfig({ ALERT_LIST_CACHE_MB: '0' }).alertListCacheBytes, 0);
  });

  it('the public URL defaults to localhost on the configured port', () => {
    assert.equal(loadConfig({ PORT: '4000' }).publicUrl, 'http://localhost:4000');
  });

  it('REGISTER_FEEDS takes a comma list, each feed optionally with the URL of a mirror', () => {
    assert.deepEqual(
      loadConfig({ REGISTER_FEEDS: ' uspto-daily = http://mirror.example/trtdxfap/ , ' })
        .registerFeeds,
      [{ name: 'uspto-daily', url: 'http://mirror.example/trtdxfap/' }],
    );
  });

  it("a bad REGISTER_FEEDS is named, but its value (a mirror's URL may hold a password) is not", () => {
    const message = configError({ REGISTER_FEEDS: 'uspto-daily=ftp://u:secret@m/' }).message;
    assert.match(message, /REGISTER_FEEDS gives feed uspto-daily a URL that is not http\(s\)/);
    assert.doesNotMatch(message, /secret/);
  });

  it('REGISTER_FEEDS names every feed, and a feed without a default location must have a URL', () => {
    assert.deepEqual(
      loadConfig({
        REGISTER_FEEDS: 'uspto-daily,cipo-weekly,euipo-bulk=https://m.example/euipo/,euipo-api',
      }).registerFeeds.map((feed) => [feed.name, feed.url]),
      [
        ['uspto-daily', undefined],
        ['cipo-weekly', undefined],
        ['euipo-bulk', 'https://m.example/euipo/'],
        ['euipo-api', undefined],
      ],
    );
    assert.match(
      configError({ REGISTER_FEEDS: 'euipo-bulk' }).message,
      /REGISTER_FEEDS gives feed euipo-bulk no URL, and it has no default location: write euipo-bulk=URL/,
    );
  });

  it('bad EUIPO client credentials are named, but their values (secrets) are not', () => {
    for (const name of ['EUIPO_CLIENT_ID', 'EUIPO_CLIENT_SECRET']) {
      const message = configError({ [name]: 'secret value\r\nX-Evil: 1' }).message;
      assert.match(message, new RegExp(`${name} must be a client`));
      assert.doesNotMatch(message, /secret value|X-Evil/);
    }
  });

  it('a bad USPTO_API_KEY is named, but its value (a secret) is not', () => {
    const message = configError({ USPTO_API_KEY: 'secret-key\r\nX-Evil: 1' }).message;
    assert.match(message, /USPTO_API_KEY must be an API key/);
    assert.doesNotMatch(message, /secret/);
  });

  it('TRUST_PROXY takes a comma list of proxy addresses', () => {
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16' }).trustProxy, [
      '10.0.0.1',
      '10.1.0.0/16',
    ]);
  });

  it('variables it does not know are ignored', () => {
    assert.equal(loadConfig({ HOME: '/root', PATH: '/bin' }).port, 3000);
  });

  const BAD: [string, NodeJS.ProcessEnv][] = [
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '80.5' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://db/tmw' }],
    ['DATABASE_REPLICA_URL', { DATABASE_REPLICA_URL: 'mysql://standby/tmw' }],
    // A standby of the embedded database cannot exist.
    ['DATABASE_REPLICA_URL', { DATABASE_REPLICA_URL: 'postgres://u@standby/tmw' }],
    ['DATABASE_REPLICA_MAX_LAG_SECONDS', { DATABASE_REPLICA_MAX_LAG_SECONDS: '0' }],
    ['DATABASE_REPLICA_MAX_LAG_SECONDS', { DATABASE_REPLICA_MAX_LAG_SECONDS: 'soon' }],
    ['REDIS_URL', { REDIS_URL: 'localhost:6379' }],
    ['SMTP_URL', { SMTP_URL: 'mail.example.com' }],
    ['SCHEDULER', { SCHEDULER: 'maybe' }],
    ['RATE_LIMIT_PER_MINUTE', { RATE_LIMIT_PER_MINUTE: '0' }],
    ['RATE_LIMIT_PER_MINUTE', { RATE_LIMIT_PER_MINUTE: 'lots' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'not a url' }],
    ['MAIL_FROM', { MAIL_FROM: 'alerts' }],
    ['MAIL_FROM', { MAIL_FROM: 'a@b.example\r\nBcc: x@example.com' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'yes please' }],
    ['REQUEST_TIMEOUT_SECONDS', { REQUEST_TIMEOUT_SECONDS: '0' }],
    ['MAX_CONNECTIONS', { MAX_CONNECTIONS: '1.5' }],
    ['DATABASE_STATEMENT_TIMEOUT_SECONDS', { DATABASE_STATEMENT_TIMEOUT_SECONDS: '0' }],
    ['DATABASE_STATEMENT_TIMEOUT_SECONDS', { DATABASE_STATEMENT_TIMEOUT_SECONDS: 'soon' }],
    ['FAILED_AUTH_PER_MINUTE', { FAILED_AUTH_PER_MINUTE: '0' }],
    ['ALERT_LIST_CACHE_MB', { ALERT_LIST_CACHE_MB: '-1' }],
    ['ALERT_LIST_CACHE_MB', { ALERT_LIST_CACHE_MB: '1.5' }],
    ['ALERT_LIST_CACHE_MB', { ALERT_LIST_CACHE_MB: 'big' }],
    ['ALERT_LIST_CACHE_MB', { ALERT_LIST_CACHE_MB: '2000000' }],
    ['WEBHOOK_ALLOW_PRIVATE_URLS', { WEBHOOK_ALLOW_PRIVATE_URLS: 'yes' }],
    ['REGISTER_SYNC_AT', { REGISTER_SYNC_AT: '24:00' }],
    ['REGISTER_SYNC_AT', { REGISTER_SYNC_AT: '6:00' }],
    ['REGISTER_FEEDS', { REGISTER_FEEDS: 'euipo-daily' }],
    ['REGISTER_FEEDS', { REGISTER_FEEDS: 'uspto-daily,uspto-daily' }],
    ['USPTO_API_KEY', { USPTO_API_KEY: 'two words' }],
    ['EUIPO_ENVIRONMENT', { EUIPO_ENVIRONMENT: 'staging' }],
    ['EUIPO_TOKEN_URL', { EUIPO_TOKEN_URL: 'ftp://auth.example/token' }],
    ['REGISTER_MAX_ENTRY_MB', { REGISTER_MAX_ENTRY_MB: '0' }],
    ['REGISTER_MAX_ENTRY_MB', { REGISTER_MAX_ENTRY_MB: '1.5' }],
    ['REGISTER_MAX_UNZIPPED_MB', { REGISTER_MAX_UNZIPPED_MB: 'lots' }],
  ];
  for (const [name, env] of BAD) {
    it(`a bad ${name} (${JSON.stringify(Object.values(env)[0])}) stops with a message naming ${name}`, () => {
      assert.match(configError(env).message, new RegExp(`\\b${name}\\b`));
    });
  }
});
