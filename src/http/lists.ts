import type { FastifyReply } from 'fastify';
import type { ListPage } from '../../contracts/lists';

/** Lets the browser read these answer headers too, keeping those the route exposed already. */
export function exposeHeaders(reply: FastifyReply, ...names: string[]): void {
  const exposed = String(reply.getHeader('access-control-expose-headers') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  reply.header('Access-Control-Expose-Headers', [...new Set([...exposed, ...names])].join(', '));
}

/** Answers in the shape the caller asked for: react-admin's array + Content-Range, or the specification's envelope. */
export function sendList<Row>(reply: FastifyReply, resource: string, list: ListPage, rows: Row[], total: number, nextCursor?: string) {
  if (list.reactAdmin) {
    const end = rows.length ? list.offset + rows.length - 1 : list.offset;
    reply.header('Content-Range', `${resource} ${list.offset}-${end}/${total}`);
    exposeHeaders(reply, 'Content-Range');
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
