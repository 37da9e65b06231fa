import type { FastifyReply } from 'fastify';
import type { ListPage } from '../../contracts/lists';

/** Answers in the shape the caller asked for: react-admin's array + Content-Range, or the specification's envelope. */
export function sendList<Row>(reply: FastifyReply, resource: string, list: ListPage, rows: Row[], total: number, nextCursor?: string) {
  if (list.reactAdmin) {
    const end = rows.length ? list.offset + rows.length - 1 : list.offset;
    reply.header('Content-Range', `${resource} ${list.offset}-${end}/${total}`);
    reply.header('Access-Control-Expose-Headers', 'Content-Range');
    return rows;
  }
  return {
    success: true as const,
    data: {
      [resource]: rows,
      total,
      page: list.page,
      limit: list.limit,
      totalPages: Math.max(1, Math.ceil(total / list.limit)),
      ...(nextCursor ? { nextCursor } : {}),
    },
  };
}
