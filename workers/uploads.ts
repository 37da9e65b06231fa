import type { Job, Processor } from 'bullmq';
import { products, type ProductEvent, type ProductState } from '../domain/products/products';
import type { Decider, DomainEvent } from '../domain/decider';
import { partners, type PartnerEvent, type PartnerState } from '../domain/partners/partners';
import { tickets, type TicketEvent, type TicketState } from '../domain/tickets/tickets';
import { resources, type ResourceEvent, type ResourceState } from '../domain/resources/resources';
import { projects, type ProjectEvent, type ProjectState } from '../domain/projects/projects';
import { rebates, type RebateEvent, type RebateState } from '../domain/rebates/rebates';
import { asDomainEvent, asDomainEvents } from '../platform/eventstore';
import { isUploadReferenced } from '../projections/uploads';
import { removeUpload, type Visibility } from '../platform/uploadStorage';
import type { Services } from '../platform/services';
import { QUEUES, reactionJobId, type JobRequest } from '../platform/queues';
import type { Reaction, ReactionTable } from './reactor';

/**
 * Uploaded files are removed once nothing refers to them: when an event drops a file from its record
 * (a replaced product image or company logo, a removed product), a job removes the file, after the
 * read models include that event and only if no read model still names it
 * (`readModelColumnsHoldingUploads()` in projections/uploads.ts).
 */

export const REMOVE_UPLOAD_JOB = 'remove-unreferenced-upload';

export interface UploadJobData {
  name: string;
  visibility: Visibility;
  /** The event that dropped the file. */
  cause: { eventId: string; streamId: string };
}

export type UploadJobOutcome = 'removed' | 'still referenced';

/** Safe to run any number of times: a file named again is kept, a file already gone is no error. */
export async function removeUnreferencedUpload(services: Pick<Services, 'pool' | 'config'>, name: string, visibility: Visibility): Promise<UploadJobOutcome> {
  if (await isUploadReferenced(services.pool, name, visibility)) return 'still referenced';
  await removeUpload(services.config.UPLOAD_DIR, name, visibility);
  return 'removed';
}

export function uploadProcessor(services: Pick<Services, 'pool' | 'config'>): Processor<UploadJobData, UploadJobOutcome> {
  return (job: Job<UploadJobData>) => removeUnreferencedUpload(services, job.data.name, job.data.visibility);
}

// ---- reactions: which events can drop a file, and which files a record holds ----

/** A record kind whose state names uploads. */
interface UploadHolder<State, Event extends DomainEvent> {
  decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>;
  uploadsOf(state: State): string[];
  visibility: Visibility;
}

const productImages: UploadHolder<ProductState, ProductEvent> = {
  decider: products,
  uploadsOf: (state) => (state.status === 'listed' && state.image ? [state.image] : []),
  visibility: 'public',
};

const partnerLogos: UploadHolder<PartnerState, PartnerEvent> = {
  decider: partners,
  uploadsOf: (state) => (state.status !== 'none' && state.companyLogo ? [state.companyLogo] : []),
  visibility: 'public',
};

const projectBoqs: UploadHolder<ProjectState, ProjectEvent> = {
  decider: projects,
  uploadsOf: (state) => (state.status !== 'none' && state.status !== 'deleted' && state.boqFile ? [state.boqFile] : []),
  visibility: 'private',
};

const rebateDocuments: UploadHolder<RebateState, RebateEvent> = {
  decider: rebates,
  uploadsOf: (state) => (state.status === 'none' || state.status === 'deleted' ? [] : state.documents),
  visibility: 'private',
};

/** The files the record named just before the event and no longer names after it, each handed to a removal job. */
function removeDroppedUploads<State, Event extends DomainEvent>(holder: UploadHolder<State, Event>): Reaction {
  return async (event, context) => {
    const history = asDomainEvents<Event>(await context.readStream(event.streamId));
    let before = holder.decider.initialState();
    for (const earlier of history) {
      if (earlier.revision >= event.revision) break;
      before = holder.decider.evolve(before, earlier);
    }
    const after = holder.decider.evolve(before, asDomainEvent<Event>(event));
    const kept = new Set(holder.uploadsOf(after));
    const dropped = holder.uploadsOf(before).filter((name) => !kept.has(name));
    if (dropped.length === 0) return [];
    // The job checks the read models, so they must show the record without the file first.
    await context.readModelsInclude(event);
    return dropped.map((name): JobRequest => ({
      queue: QUEUES.uploads,
      name: REMOVE_UPLOAD_JOB,
      id: reactionJobId(event.id, REMOVE_UPLOAD_JOB, name),
      data: { name, visibility: holder.visibility, cause: { eventId: event.id, streamId: event.streamId } } satisfies UploadJobData,
    }));
  };
}

const ticketAttachments: UploadHolder<TicketState, TicketEvent> = {
  decider: tickets,
  uploadsOf: (state) => (state.status !== 'none' && state.status !== 'deleted' ? state.attachments : []),
  visibility: 'private',
};

const resourceFiles: UploadHolder<ResourceState, ResourceEvent> = {
  decider: resources,
  uploadsOf: (state) => (state.status === 'published' ? [state.file] : []),
  visibility: 'private',
};

export const uploadReactions: ReactionTable = {
  'ProductUpdated.v1': [removeDroppedUploads(productImages)],
  'ProductRemoved.v1': [removeDroppedUploads(productImages)],
  'PartnerApplicationDetailsProvided.v1': [removeDroppedUploads(partnerLogos)],
  'TicketDeleted.v1': [removeDroppedUploads(ticketAttachments)],
  'ResourceRemoved.v1': [removeDroppedUploads(resourceFiles)],
  'ProjectUpdated.v1': [removeDroppedUploads(projectBoqs)],
  'ProjectDeleted.v1': [removeDroppedUploads(projectBoqs)],
  'RebateDeleted.v1': [removeDroppedUploads(rebateDocuments)],
};
