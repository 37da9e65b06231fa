/** One line of an organisation's activity feed (GET /activity): newest first, only what the caller may read. */
export interface ActivityLine {
  id: string;
  organisation_id: string;
  occurred_at: string;
  resource: 'orders' | 'rebates' | 'projects' | 'tickets' | 'team' | 'organisation';
  record_id: string;
  event_type: string;
  message: string;
  link: string | null;
}
