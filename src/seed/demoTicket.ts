import type { TicketStatus } from '../../domain/tickets/tickets';

/** How a demo ticket is written down, by hand (tickets.ts) or generated as history (historyTickets.ts). */
export type Step =
  | { hoursAgo: number; by: string; reply: string }
  | { hoursAgo: number; by: string; note: string }
  | { hoursAgo: number; by: string; status: TicketStatus; comment?: string; internal?: boolean; resolution?: string }
  | { hoursAgo: number; by: string; assign: string; comment?: string };

export interface DemoTicket {
  key: string;
  openedBy: string;
  hoursAgo: number;
  title: string;
  description: string;
  priority: 'Low' | 'Medium' | 'High' | 'Critical';
  category: 'General' | 'Technical' | 'Billing' | 'Feature Request' | 'Bug Report';
  tags: string;
  initialComment?: string;
  steps: Step[];
}
