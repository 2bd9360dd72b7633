import type { FastifyReply } from 'fastify';
import { compactJson } from '../json-text.ts';

/** Sends JSON that is already serialised (built by PostgreSQL or pageBody), as text or UTF-8 bytes. */
export function sendJson(reply: FastifyReply, status: number, json: string | Buffer) {
  return reply.code(status).type('application/json; charset=utf-8').send(json);
}

/** `{"data": json}`; the JSON a repository built is made compact like every other answer. */
export function sendData(reply: FastifyReply, status: number, json: string) {
  return sendJson(reply, status, `{"data":${compactJson(json)}}`);
}
