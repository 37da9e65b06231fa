// A ticket conversation: a partner or distributor opens a case with an attachment (multipart); support
// reads the queue and the ticket, assigns it, adds an internal note and a reply; the customer reads the
// conversation (the reply, never the note) and answers; support resolves it.
//
//   npm run load -- load-tests/k6/tickets.js -e BASE_URL=http://localhost:3000
//
// Arrival rate: RATE tickets per second (default 1) for DURATION (default 2m).
import { arrivals, THRESHOLDS } from './lib/portal.js';
import { ticketConversation, useFiles } from './lib/journeys.js';

useFiles({ pdf: open('./fixtures/document.pdf', 'b'), png: open('./fixtures/product.png', 'b') });

export const options = {
  scenarios: { tickets: arrivals('ticketConversation', 1) },
  thresholds: THRESHOLDS,
};

export { ticketConversation };
