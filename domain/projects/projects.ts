import { isAdminRole } from '../access';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';
import { REJECTION_REASON_MAX } from '../partners/application';
import { addMs, LIVE_STATUSES, reminderDueAt, type ExtensionStatus, type RegistrationStatus } from './registration';
import { recordOf } from '../records';

/**
 * A project is a deal registration (spec 001): a partner registers an end customer's opportunity and
 * then works it through Planning, In Progress, On Hold and Completed, with milestones and a team.
 * Beside that work status runs the registration's own lifecycle: protected from submission until it
 * expires (60 days), reviewed by an administrator, flagged when another organisation already holds the
 * same deal, extended once by 30 days on request.
 */

export const PROJECT_STATUSES = ['Planning', 'In Progress', 'On Hold', 'Completed'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** Work moves forward or pauses; a completed project is finished and stays so. */
export const PROJECT_STATUS_TRANSITIONS: Readonly<Record<ProjectStatus, readonly ProjectStatus[]>> = {
  Planning: ['In Progress', 'On Hold', 'Completed'],
  'In Progress': ['On Hold', 'Completed', 'Planning'],
  'On Hold': ['In Progress', 'Planning'],
  Completed: [],
};

export const isProjectStatus = (value: unknown): value is ProjectStatus => typeof value === 'string' && (PROJECT_STATUSES as readonly string[]).includes(value);
export const nextProjectStatuses = (status: string): readonly ProjectStatus[] => (isProjectStatus(status) ? PROJECT_STATUS_TRANSITIONS[status] : []);

export const MILESTONE_STATUSES = ['pending', 'in-progress', 'completed'] as const;
export type MilestoneStatus = (typeof MILESTONE_STATUSES)[number];

export const PROJECT_MESSAGES = {
  created: 'Project created successfully',
  updated: 'Project updated successfully',
  deleted: 'Project deleted successfully',
  notFound: 'Project not found.',
  titleRequired: 'Title is required',
  progressRange: 'Progress must be between 0 and 100.',
  valueRange: 'Budget must be a number of at least 0.',
  invalidTransition: 'Invalid status transition',
  transitionDetails: (from: string, to: string) => `Cannot change status from ${from} to ${to}`,
  milestoneTitleRequired: 'Milestone title is required',
  milestoneDateRequired: 'Milestone date is required',
  milestoneDateOutside: 'Milestone date must be within project start and end date',
  milestoneNotFound: 'Milestone not found.',
  milestoneExists: 'This milestone already exists.',
  milestoneStatus: 'Milestone status must be pending, in-progress or completed.',
  alreadyMember: 'This user is already on the project team.',
  onlyAdminsReview: 'Only administrators can review deal registrations.',
  reasonRequired: 'Please give a reason.',
  reasonTooLong: `The reason must be at most ${REJECTION_REASON_MAX} characters.`,
  noteRequiredForConflict: 'Approving a registration under conflict review needs a note explaining why both registrations stand.',
  alreadyReviewed: (status: string) => `This registration is already ${status}.`,
  extensionReasonRequired: 'Please give a reason for the extension.',
  extensionAlreadyRequested: 'This registration has already used its one extension request.',
  extensionAfterExpiry: 'An extension can only be requested before the registration expires.',
  extensionNotLive: 'Only a protected registration can be extended.',
  noExtensionRequested: 'There is no extension request to decide.',
  extensionDecisionAfterExpiry: 'The registration expired before the extension was decided; it can no longer be extended.',
  notDue: 'This registration is not due to expire yet.',
  deletedProject: 'This project has been deleted.',
  orderAlreadyLinked: 'This order is already linked to the project.',
} as const;

// ---- the registration's fields ----

/** The fields of spec 001 §3 a partner fills in (everything but the partner company, status and the file). */
export interface ProjectDetails {
  title: string;
  expected_closure_date: string | null; // YYYY-MM-DD
  country_region: string | null;
  sales_person: string | null;
  project_stage: string | null;
  progress: number;
  project_progress_remarks: string | null;
  end_user_requirements: string | null;
  end_user_customer_name: string | null;
  end_user_location: string | null;
  end_user_it_head_name: string | null;
  end_user_contact_number: string | null;
  end_user_email: string | null;
  partner_company_name: string | null;
  partner_company_location: string | null;
  partner_email: string | null;
  partner_contact_number: string | null;
  value: number | null;
  /** The market development activity (an approved fund request of the same organisation) that produced the deal; absent in older events. */
  fund_request_id?: string | null;
}
export const PROJECT_DETAIL_FIELDS = [
  'title',
  'expected_closure_date',
  'country_region',
  'sales_person',
  'project_stage',
  'progress',
  'project_progress_remarks',
  'end_user_requirements',
  'end_user_customer_name',
  'end_user_location',
  'end_user_it_head_name',
  'end_user_contact_number',
  'end_user_email',
  'partner_company_name',
  'partner_company_location',
  'partner_email',
  'partner_contact_number',
  'value',
  'fund_request_id',
] as const satisfies readonly (keyof ProjectDetails)[];

/** Project details with nothing filled in: an empty title, no progress, every other field null. */
export const emptyProjectDetails = (): ProjectDetails => ({ ...recordOf(PROJECT_DETAIL_FIELDS, () => null), title: '', progress: 0 });

function invalid(field: string, message: string, code = 'VALIDATION_ERROR'): DomainError {
  return new DomainError('invalid', code, message, [{ field, message }]);
}

/** Trims text, turns empty text into null and checks title, progress and budget. */
export function normalizeDetails(details: ProjectDetails): ProjectDetails {
  const text = (value: string | null) => value?.trim() || null;
  const title = details.title.trim();
  if (!title) throw invalid('title', PROJECT_MESSAGES.titleRequired);
  if (!Number.isInteger(details.progress) || details.progress < 0 || details.progress > 100) throw invalid('progress', PROJECT_MESSAGES.progressRange);
  if (details.value !== null && (!Number.isFinite(details.value) || details.value < 0)) throw invalid('value', PROJECT_MESSAGES.valueRange);
  return {
    title,
    expected_closure_date: text(details.expected_closure_date),
    country_region: text(details.country_region),
    sales_person: text(details.sales_person),
    project_stage: text(details.project_stage),
    progress: details.progress,
    project_progress_remarks: text(details.project_progress_remarks),
    end_user_requirements: text(details.end_user_requirements),
    end_user_customer_name: text(details.end_user_customer_name),
    end_user_location: text(details.end_user_location),
    end_user_it_head_name: text(details.end_user_it_head_name),
    end_user_contact_number: text(details.end_user_contact_number),
    end_user_email: text(details.end_user_email)?.toLowerCase() ?? null,
    partner_company_name: text(details.partner_company_name),
    partner_company_location: text(details.partner_company_location),
    partner_email: text(details.partner_email)?.toLowerCase() ?? null,
    partner_contact_number: text(details.partner_contact_number),
    value: details.value === null ? null : Math.round(details.value * 100) / 100,
    fund_request_id: details.fund_request_id?.trim() || null,
  };
}

// ---- state ----

/**
 * Orders are linked only to a project whose registration still stands: an expired or rejected registration
 * protects nothing, so neither the shipping form nor the project page offers it, and the server refuses it.
 */
export const UNLINKABLE_REGISTRATIONS = ['expired', 'rejected'] as const;
export const isLinkableProject = (project: { status: string; registration_status: string }) =>
  project.status !== 'Completed' && !(UNLINKABLE_REGISTRATIONS as readonly string[]).includes(project.registration_status);
export const NOT_LINKABLE_MESSAGE =
  "This project's registration has expired or was rejected, or the project is completed: orders can no longer be linked to it.";

export interface Milestone {
  id: string;
  name: string;
  date: string;
  status: MilestoneStatus;
}

export interface LiveProject {
  status: ProjectStatus;
  id: string;
  organisationId: string;
  details: ProjectDetails;
  boqFile: string | null;
  /** The day the registration was submitted (YYYY-MM-DD): the project's start for milestone dates. */
  startDate: string;
  registration: RegistrationStatus;
  expiresAt: string;
  extension: ExtensionStatus;
  remindersSent: string[]; // `${daysBefore}@${expiresAt}`
  milestones: Milestone[];
  team: string[];
  orders: string[];
}

export type ProjectState = { status: 'none' } | { status: 'deleted'; id: string } | LiveProject;

// ---- events ----

export interface ConflictFinding {
  /** The earlier registration of another organisation that holds the same deal. */
  projectId: string;
}

export type ProjectEvent =
  | {
      type: 'ProjectRegistered.v1';
      data: {
        projectId: string;
        organisationId: string;
        companyName: string | null;
        createdBy: string;
        details: ProjectDetails;
        boqFile: string | null;
        submittedAt: string;
        expiresAt: string;
        registrationStatus: 'pending' | 'conflict';
        conflictWith: string | null;
        status: 'Planning';
        previousStatus: null;
      };
    }
  /** `details` holds the fields the edit carried; events before partial edits hold every field. */
  | { type: 'ProjectUpdated.v1'; data: { projectId: string; details: Partial<ProjectDetails>; boqFile?: string | null } }
  | {
      type: 'ProjectStatusChanged.v1';
      data: { projectId: string; status: ProjectStatus; previousStatus: ProjectStatus; reason: string | null; progress: number };
    }
  | { type: 'ProjectDeleted.v1'; data: { projectId: string; organisationId: string } }
  | {
      type: 'ProjectRegistrationApproved.v1';
      data: { projectId: string; organisationId: string; previousRegistrationStatus: RegistrationStatus; note: string | null };
    }
  | {
      type: 'ProjectRegistrationRejected.v1';
      data: { projectId: string; organisationId: string; previousRegistrationStatus: RegistrationStatus; reason: string };
    }
  | {
      type: 'ProjectRegistrationExpired.v1';
      data: { projectId: string; organisationId: string; expiresAt: string; previousRegistrationStatus: RegistrationStatus };
    }
  | {
      type: 'ProjectExpiryReminderSent.v1';
      data: {
        projectId: string;
        organisationId: string;
        daysBefore: number;
        expiresAt: string;
        /** Sent by the recovery sweep after its job was lost: past its time. */ late?: true;
      };
    }
  | { type: 'ProjectExtensionRequested.v1'; data: { projectId: string; organisationId: string; reason: string } }
  | {
      type: 'ProjectExtensionApproved.v1';
      data: { projectId: string; organisationId: string; previousExpiresAt: string; expiresAt: string; note: string | null };
    }
  | { type: 'ProjectExtensionDeclined.v1'; data: { projectId: string; organisationId: string; reason: string } }
  | { type: 'ProjectMilestoneAdded.v1'; data: { projectId: string; milestone: Milestone } }
  | { type: 'ProjectMilestoneUpdated.v1'; data: { projectId: string; milestone: Milestone } }
  | { type: 'ProjectMilestoneRemoved.v1'; data: { projectId: string; milestoneId: string } }
  | { type: 'ProjectTeamMemberAdded.v1'; data: { projectId: string; userId: string } }
  | { type: 'ProjectTeamMemberRemoved.v1'; data: { projectId: string; userId: string } }
  | { type: 'ProjectOrderLinked.v1'; data: { projectId: string; orderId: string } }
  | { type: 'ProjectOrderUnlinked.v1'; data: { projectId: string; orderId: string } };

// ---- commands ----

export type ProjectCommand =
  | {
      type: 'RegisterProject';
      projectId: string;
      organisationId: string;
      companyName: string | null;
      createdBy: string;
      details: ProjectDetails;
      boqFile: string | null;
      /** How long a registration is protected (60 days; shorter in tests). */
      validityMs: number;
      /** Found by looking up the protected registrations of other organisations before the command. */
      conflict: ConflictFinding | null;
    }
  /** `details`: only the fields to change. With `status`, also moves the work status: both or neither are recorded. */
  | { type: 'UpdateProject'; details: Partial<ProjectDetails>; boqFile?: string | null; status?: string; reason?: string | null }
  | { type: 'ChangeProjectStatus'; status: string; reason: string | null }
  | { type: 'DeleteProject' }
  | { type: 'ReviewRegistration'; decision: 'approved' | 'rejected'; reason: string | null }
  | { type: 'ExpireRegistration' }
  | { type: 'SendExpiryReminder'; daysBefore: number; expiresAt: string; late?: true }
  | { type: 'RequestExtension'; reason: string }
  | { type: 'DecideExtension'; decision: 'approved' | 'declined'; reason: string | null; extensionMs: number }
  | { type: 'AddMilestone'; milestoneId: string; name: string; date: string; status: string }
  | { type: 'UpdateMilestone'; milestoneId: string; name: string; date: string; status: string }
  | { type: 'RemoveMilestone'; milestoneId: string }
  | { type: 'AddTeamMember'; userId: string }
  | { type: 'RemoveTeamMember'; userId: string }
  | { type: 'LinkOrder'; orderId: string }
  | { type: 'UnlinkOrder'; orderId: string };

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (value: string) =>
  DATE_PATTERN.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

function checkClosureDate(details: ProjectDetails) {
  if (details.expected_closure_date !== null && !isDate(details.expected_closure_date))
    throw invalid('expected_closure_date', 'Expected closure date must be a date (YYYY-MM-DD).');
}

function reasonOf(raw: string | null, required: boolean, field: string, requiredMessage: string = PROJECT_MESSAGES.reasonRequired): string | null {
  const reason = raw?.trim() ?? '';
  if (!reason) {
    if (required) throw invalid(field, requiredMessage);
    return null;
  }
  if (reason.length > REJECTION_REASON_MAX) throw invalid(field, PROJECT_MESSAGES.reasonTooLong);
  return reason;
}

function milestoneOf(project: LiveProject, command: { milestoneId: string; name: string; date: string; status: string }): Milestone {
  const name = command.name.trim();
  if (!name) throw invalid('name', PROJECT_MESSAGES.milestoneTitleRequired);
  const date = command.date.trim().slice(0, 10);
  if (!date) throw invalid('date', PROJECT_MESSAGES.milestoneDateRequired);
  if (!isDate(date)) throw invalid('date', 'Milestone date must be a date (YYYY-MM-DD).');
  const end = project.details.expected_closure_date;
  if (date < project.startDate || (end !== null && date > end)) throw invalid('date', PROJECT_MESSAGES.milestoneDateOutside, 'MILESTONE_DATE_OUTSIDE_PROJECT');
  if (!(MILESTONE_STATUSES as readonly string[]).includes(command.status)) throw invalid('status', PROJECT_MESSAGES.milestoneStatus);
  return { id: command.milestoneId, name, date, status: command.status as MilestoneStatus };
}

const live = (state: ProjectState): LiveProject => {
  if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', PROJECT_MESSAGES.notFound);
  if (state.status === 'deleted') throw new DomainError('not_found', 'NOT_FOUND', PROJECT_MESSAGES.deletedProject);
  return state;
};

const requireAdmin = (metadata: CommandMetadata) => {
  if (!isAdminRole(metadata.actorRole)) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', PROJECT_MESSAGES.onlyAdminsReview);
};

const sameMilestone = (a: Milestone, b: Milestone) => a.id === b.id && a.name === b.name && a.date === b.date && a.status === b.status;

function changeStatus(project: LiveProject, to: string, reason: string | null): ProjectEvent[] {
  if (to === project.status) return [];
  if (!nextProjectStatuses(project.status).includes(to as ProjectStatus)) {
    throw new DomainError('conflict', 'INVALID_STATUS_TRANSITION', PROJECT_MESSAGES.invalidTransition, PROJECT_MESSAGES.transitionDetails(project.status, to));
  }
  const status = to as ProjectStatus;
  return [
    {
      type: 'ProjectStatusChanged.v1',
      data: {
        projectId: project.id,
        status,
        previousStatus: project.status,
        reason: reason?.trim() || null,
        progress: status === 'Completed' ? 100 : project.details.progress,
      },
    },
  ];
}

const isLive = (registration: RegistrationStatus) => LIVE_STATUSES.includes(registration);

type CommandOf<Type extends ProjectCommand['type']> = Extract<ProjectCommand, { type: Type }>;

function registerProject(command: CommandOf<'RegisterProject'>, state: ProjectState, metadata: CommandMetadata): ProjectEvent[] {
  // A retried registration changes nothing.
  if (state.status !== 'none') return [];
  const details = normalizeDetails(command.details);
  checkClosureDate(details);
  return [
    {
      type: 'ProjectRegistered.v1',
      data: {
        projectId: command.projectId,
        organisationId: command.organisationId,
        companyName: command.companyName,
        createdBy: command.createdBy,
        details,
        boqFile: command.boqFile,
        submittedAt: metadata.now,
        expiresAt: addMs(metadata.now, command.validityMs),
        registrationStatus: command.conflict ? 'conflict' : 'pending',
        conflictWith: command.conflict?.projectId ?? null,
        status: 'Planning',
        previousStatus: null,
      },
    },
  ];
}

/**
 * Only the fields the command carries are laid over the current ones and recorded, so two edits of
 * different fields made at the same time both stand. Nothing is recorded when none of them changes.
 */
function updateProject(command: CommandOf<'UpdateProject'>, state: ProjectState): ProjectEvent[] {
  const project = live(state);
  const sent = PROJECT_DETAIL_FIELDS.filter((field) => command.details[field] !== undefined);
  const details = normalizeDetails({ ...project.details, ...Object.fromEntries(sent.map((field) => [field, command.details[field]])) });
  checkClosureDate(details);
  const changes: Partial<ProjectDetails> = Object.fromEntries(sent.map((field) => [field, details[field]]));
  const changed = sent.some((field) => (details[field] ?? null) !== (project.details[field] ?? null));
  const boqChanged = command.boqFile !== undefined;
  const updated: ProjectEvent[] =
    !changed && !boqChanged
      ? []
      : [{ type: 'ProjectUpdated.v1', data: { projectId: project.id, details: changes, ...(boqChanged ? { boqFile: command.boqFile } : {}) } }];
  const moved = command.status === undefined ? [] : changeStatus({ ...project, details }, command.status, command.reason ?? null);
  return [...updated, ...moved];
}

function deleteProject(state: ProjectState): ProjectEvent[] {
  if (state.status === 'deleted') return [];
  const project = live(state);
  return [{ type: 'ProjectDeleted.v1', data: { projectId: project.id, organisationId: project.organisationId } }];
}

function reviewRegistration(command: CommandOf<'ReviewRegistration'>, state: ProjectState, metadata: CommandMetadata): ProjectEvent[] {
  requireAdmin(metadata);
  const project = live(state);
  if (!(['pending', 'conflict'] as RegistrationStatus[]).includes(project.registration)) {
    throw new DomainError('conflict', 'REGISTRATION_DECIDED', PROJECT_MESSAGES.alreadyReviewed(project.registration));
  }
  const base = { projectId: project.id, organisationId: project.organisationId, previousRegistrationStatus: project.registration };
  if (command.decision === 'rejected') {
    return [{ type: 'ProjectRegistrationRejected.v1', data: { ...base, reason: reasonOf(command.reason, true, 'reason')! } }];
  }
  const note = reasonOf(command.reason, project.registration === 'conflict', 'reason', PROJECT_MESSAGES.noteRequiredForConflict);
  return [{ type: 'ProjectRegistrationApproved.v1', data: { ...base, note } }];
}

function expireRegistration(state: ProjectState, metadata: CommandMetadata): ProjectEvent[] {
  const project = live(state);
  // Expired, rejected: nothing is protected any more, so a second expiry changes nothing.
  if (!isLive(project.registration)) return [];
  if (Date.parse(metadata.now) < Date.parse(project.expiresAt)) throw new DomainError('conflict', 'REGISTRATION_NOT_DUE', PROJECT_MESSAGES.notDue);
  return [
    {
      type: 'ProjectRegistrationExpired.v1',
      data: { projectId: project.id, organisationId: project.organisationId, expiresAt: project.expiresAt, previousRegistrationStatus: project.registration },
    },
  ];
}

function sendExpiryReminder(command: CommandOf<'SendExpiryReminder'>, state: ProjectState, metadata: CommandMetadata): ProjectEvent[] {
  const project = live(state);
  // A reminder for an expiry that moved (an extension) or a registration no longer protected is not sent.
  if (!isLive(project.registration) || command.expiresAt !== project.expiresAt) return [];
  if (project.remindersSent.includes(`${command.daysBefore}@${command.expiresAt}`)) return [];
  if (Date.parse(metadata.now) < Date.parse(reminderDueAt(project.expiresAt, command.daysBefore)))
    throw new DomainError('conflict', 'REMINDER_NOT_DUE', 'This reminder is not due yet.');
  return [
    {
      type: 'ProjectExpiryReminderSent.v1',
      data: {
        projectId: project.id,
        organisationId: project.organisationId,
        daysBefore: command.daysBefore,
        expiresAt: project.expiresAt,
        ...(command.late ? { late: true as const } : {}),
      },
    },
  ];
}

function requestExtension(command: CommandOf<'RequestExtension'>, state: ProjectState, metadata: CommandMetadata): ProjectEvent[] {
  const project = live(state);
  if (project.extension !== 'none') throw new DomainError('conflict', 'EXTENSION_ALREADY_REQUESTED', PROJECT_MESSAGES.extensionAlreadyRequested);
  if (project.registration === 'expired' || Date.parse(metadata.now) >= Date.parse(project.expiresAt))
    throw new DomainError('conflict', 'REGISTRATION_EXPIRED', PROJECT_MESSAGES.extensionAfterExpiry);
  if (!isLive(project.registration)) throw new DomainError('conflict', 'REGISTRATION_NOT_LIVE', PROJECT_MESSAGES.extensionNotLive);
  const reason = reasonOf(command.reason, true, 'reason', PROJECT_MESSAGES.extensionReasonRequired)!;
  return [{ type: 'ProjectExtensionRequested.v1', data: { projectId: project.id, organisationId: project.organisationId, reason } }];
}

function decideExtension(command: CommandOf<'DecideExtension'>, state: ProjectState, metadata: CommandMetadata): ProjectEvent[] {
  requireAdmin(metadata);
  const project = live(state);
  if (project.extension !== 'requested') throw new DomainError('conflict', 'NO_EXTENSION_REQUESTED', PROJECT_MESSAGES.noExtensionRequested);
  const base = { projectId: project.id, organisationId: project.organisationId };
  if (command.decision === 'declined') return [{ type: 'ProjectExtensionDeclined.v1', data: { ...base, reason: reasonOf(command.reason, true, 'reason')! } }];
  if (!isLive(project.registration)) throw new DomainError('conflict', 'REGISTRATION_EXPIRED', PROJECT_MESSAGES.extensionDecisionAfterExpiry);
  return [
    {
      type: 'ProjectExtensionApproved.v1',
      data: {
        ...base,
        previousExpiresAt: project.expiresAt,
        expiresAt: addMs(project.expiresAt, command.extensionMs),
        note: reasonOf(command.reason, false, 'reason'),
      },
    },
  ];
}

function addMilestone(command: CommandOf<'AddMilestone'>, state: ProjectState): ProjectEvent[] {
  const project = live(state);
  const existing = project.milestones.find((m) => m.id === command.milestoneId);
  const milestone = milestoneOf(project, command);
  if (existing) {
    if (sameMilestone(existing, milestone)) return [];
    throw new DomainError('conflict', 'CONFLICT', PROJECT_MESSAGES.milestoneExists);
  }
  return [{ type: 'ProjectMilestoneAdded.v1', data: { projectId: project.id, milestone } }];
}

function updateMilestone(command: CommandOf<'UpdateMilestone'>, state: ProjectState): ProjectEvent[] {
  const project = live(state);
  const existing = project.milestones.find((m) => m.id === command.milestoneId);
  if (!existing) throw new DomainError('not_found', 'NOT_FOUND', PROJECT_MESSAGES.milestoneNotFound);
  const milestone = milestoneOf(project, command);
  if (sameMilestone(existing, milestone)) return [];
  return [{ type: 'ProjectMilestoneUpdated.v1', data: { projectId: project.id, milestone } }];
}

function removeMilestone(command: CommandOf<'RemoveMilestone'>, state: ProjectState): ProjectEvent[] {
  const project = live(state);
  if (!project.milestones.some((m) => m.id === command.milestoneId)) throw new DomainError('not_found', 'NOT_FOUND', PROJECT_MESSAGES.milestoneNotFound);
  return [{ type: 'ProjectMilestoneRemoved.v1', data: { projectId: project.id, milestoneId: command.milestoneId } }];
}

function addTeamMember(command: CommandOf<'AddTeamMember'>, state: ProjectState): ProjectEvent[] {
  const project = live(state);
  if (project.team.includes(command.userId)) throw new DomainError('conflict', 'CONFLICT', PROJECT_MESSAGES.alreadyMember);
  return [{ type: 'ProjectTeamMemberAdded.v1', data: { projectId: project.id, userId: command.userId } }];
}

function removeTeamMember(command: CommandOf<'RemoveTeamMember'>, state: ProjectState): ProjectEvent[] {
  const project = live(state);
  // Removing someone who is not on the team leaves it as asked: nothing to record.
  if (!project.team.includes(command.userId)) return [];
  return [{ type: 'ProjectTeamMemberRemoved.v1', data: { projectId: project.id, userId: command.userId } }];
}

function linkOrder(command: CommandOf<'LinkOrder'>, state: ProjectState): ProjectEvent[] {
  const project = live(state);
  if (project.orders.includes(command.orderId)) throw new DomainError('conflict', 'CONFLICT', PROJECT_MESSAGES.orderAlreadyLinked);
  return [{ type: 'ProjectOrderLinked.v1', data: { projectId: project.id, orderId: command.orderId } }];
}

function unlinkOrder(command: CommandOf<'UnlinkOrder'>, state: ProjectState): ProjectEvent[] {
  const project = live(state);
  if (!project.orders.includes(command.orderId)) return [];
  return [{ type: 'ProjectOrderUnlinked.v1', data: { projectId: project.id, orderId: command.orderId } }];
}

export function decide(command: ProjectCommand, state: ProjectState, metadata: CommandMetadata): ProjectEvent[] {
  switch (command.type) {
    case 'RegisterProject':
      return registerProject(command, state, metadata);
    case 'UpdateProject':
      return updateProject(command, state);
    case 'ChangeProjectStatus':
      return changeStatus(live(state), command.status, command.reason);
    case 'DeleteProject':
      return deleteProject(state);
    case 'ReviewRegistration':
      return reviewRegistration(command, state, metadata);
    case 'ExpireRegistration':
      return expireRegistration(state, metadata);
    case 'SendExpiryReminder':
      return sendExpiryReminder(command, state, metadata);
    case 'RequestExtension':
      return requestExtension(command, state, metadata);
    case 'DecideExtension':
      return decideExtension(command, state, metadata);
    case 'AddMilestone':
      return addMilestone(command, state);
    case 'UpdateMilestone':
      return updateMilestone(command, state);
    case 'RemoveMilestone':
      return removeMilestone(command, state);
    case 'AddTeamMember':
      return addTeamMember(command, state);
    case 'RemoveTeamMember':
      return removeTeamMember(command, state);
    case 'LinkOrder':
      return linkOrder(command, state);
    case 'UnlinkOrder':
      return unlinkOrder(command, state);
    default:
      return assertNever(command);
  }
}

export function evolve(state: ProjectState, event: ProjectEvent): ProjectState {
  if (event.type === 'ProjectRegistered.v1') {
    const d = event.data;
    return {
      status: 'Planning',
      id: d.projectId,
      organisationId: d.organisationId,
      details: d.details,
      boqFile: d.boqFile,
      startDate: d.submittedAt.slice(0, 10),
      registration: d.registrationStatus,
      expiresAt: d.expiresAt,
      extension: 'none',
      remindersSent: [],
      milestones: [],
      team: [],
      orders: [],
    };
  }
  if (state.status === 'none' || state.status === 'deleted') return state;
  switch (event.type) {
    case 'ProjectUpdated.v1':
      return { ...state, details: { ...state.details, ...event.data.details }, ...('boqFile' in event.data ? { boqFile: event.data.boqFile ?? null } : {}) };
    case 'ProjectStatusChanged.v1':
      return { ...state, status: event.data.status, details: { ...state.details, progress: event.data.progress } };
    case 'ProjectDeleted.v1':
      return { status: 'deleted', id: state.id };
    case 'ProjectRegistrationApproved.v1':
      return { ...state, registration: 'approved' };
    case 'ProjectRegistrationRejected.v1':
      return { ...state, registration: 'rejected' };
    case 'ProjectRegistrationExpired.v1':
      return { ...state, registration: 'expired' };
    case 'ProjectExpiryReminderSent.v1':
      return { ...state, remindersSent: [...state.remindersSent, `${event.data.daysBefore}@${event.data.expiresAt}`] };
    case 'ProjectExtensionRequested.v1':
      return { ...state, extension: 'requested' };
    case 'ProjectExtensionApproved.v1':
      return { ...state, extension: 'approved', expiresAt: event.data.expiresAt };
    case 'ProjectExtensionDeclined.v1':
      return { ...state, extension: 'declined' };
    case 'ProjectMilestoneAdded.v1':
      return { ...state, milestones: [...state.milestones, event.data.milestone] };
    case 'ProjectMilestoneUpdated.v1':
      return { ...state, milestones: state.milestones.map((m) => (m.id === event.data.milestone.id ? event.data.milestone : m)) };
    case 'ProjectMilestoneRemoved.v1':
      return { ...state, milestones: state.milestones.filter((m) => m.id !== event.data.milestoneId) };
    case 'ProjectTeamMemberAdded.v1':
      return { ...state, team: [...state.team, event.data.userId] };
    case 'ProjectTeamMemberRemoved.v1':
      return { ...state, team: state.team.filter((id) => id !== event.data.userId) };
    case 'ProjectOrderLinked.v1':
      return { ...state, orders: [...state.orders, event.data.orderId] };
    case 'ProjectOrderUnlinked.v1':
      return { ...state, orders: state.orders.filter((id) => id !== event.data.orderId) };
    default:
      return assertNever(event);
  }
}

export const projects: Decider<ProjectState, ProjectCommand, ProjectEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  streamId: (id) => `projects-${id}`,
};
