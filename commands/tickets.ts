import { formatTicketNumber, tickets, type Assignee, type TicketCommand } from '../domain/tickets/tickets';
import type { CommandMetadata } from '../domain/decider';
import { tierInForceAt } from '../projections/programme';
import { findUser } from '../projections/users';
import type { Services } from '../platform/services';
import { runCommand } from '../platform/commands/dispatch';

type Deps = Pick<Services, 'store' | 'watcher' | 'pool'>;

/** What a caller gives to open a ticket: the command without what is looked up here (number, assignee's role, support terms), and the assignee by id. */
export type OpenTicketInput = Omit<Extract<TicketCommand, { type: 'OpenTicket' }>, 'type' | 'ticketNumber' | 'assignee' | 'support'> & {
  assignedTo?: string | null;
};

/** The user named as assignee, as the decider checks it: undefined when none was named, null when not found. */
export async function assigneeOf(deps: Pick<Services, 'pool'>, userId: string | null | undefined): Promise<Assignee | null | undefined> {
  if (userId === undefined || userId === null || userId === '') return undefined;
  const user = /^[0-9a-f-]{36}$/i.test(userId) ? await findUser(deps.pool, userId) : undefined;
  return user && user.is_active ? { id: user.id, role: user.role } : null;
}

/** Opens a ticket under the next number; a retried open of the same id changes nothing. */
export async function openTicket(deps: Deps, input: OpenTicketInput, metadata: CommandMetadata) {
  const existing = await deps.store.readStream(tickets.streamId(input.ticketId));
  if (existing.length) return { created: false };
  const assignee = await assigneeOf(deps, input.assignedTo);
  // The organisation's tier in force when the ticket is opened sets how soon support answers it.
  const tier = await tierInForceAt(deps.pool, input.organisationId, metadata.now);
  const support = tier ? { level: tier.benefits.support_priority, tierId: tier.id, tierName: tier.name } : null;
  const base = { ...input, type: 'OpenTicket' as const, assignee, support, ticketNumber: 'TCK-0000-000000' };
  // The ticket's own rules first: no number is drawn for a ticket that cannot be opened.
  tickets.decide(base, tickets.initialState(), metadata);
  const { rows } = await deps.pool.query<{ n: string }>(`SELECT nextval('ticket_numbers') AS n`);
  const command: TicketCommand = { ...base, ticketNumber: formatTicketNumber(metadata.now, BigInt(rows[0].n)) };
  await runCommand(deps, tickets, input.ticketId, command, metadata);
  return { created: true };
}
