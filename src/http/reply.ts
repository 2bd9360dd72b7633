import type { FastifyReply } from 'fastify';
import { compactJson } from '../json-text.ts';

/** Sends JSON that is already serialised (built by PostgreSQL or pageBody), as text or UTF-8 bytes. */
export function sendJson(reply: FastifyReply, status: number, json: string | Buffer) {
  return reply.code(status).type('application/json; charset=utf-8').send(json);
}

/**
 * `{"data": json}`; the JSON a repository built is made compact like every other answer, unless it
 * is compact already (`compact: true`: a watch's or an alert's JSON, json-sql.ts, migration 033).
 */
export function sendData(
  reply: FastifyReply,
  status: number,
  json: string,
  options: { compact?: boolean } = {},
) {
  return sendJson(reply, status, `{"data":${options.compact ? json : compactJson(json)}}`);
}
