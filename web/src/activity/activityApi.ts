/** One line of an organisation's activity feed (GET /activity): newest first, only what the caller may read. */
export type { Activity as ActivityLine } from '@contracts/activity';
