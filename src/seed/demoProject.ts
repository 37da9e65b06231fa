import type { MilestoneStatus, ProjectDetails, ProjectStatus } from '../../domain/projects/projects';

/** How a demo project is written down, by hand (projects.ts) or generated as history (historyProjects.ts). */
export interface DemoProject {
  key: string;
  owner: string; // e-mail of the registering partner account
  submittedDaysAgo: number;
  closesInDays: number;
  details: Partial<ProjectDetails> & { title: string };
  status?: [ProjectStatus, number]; // the work status reached, days ago
  review?: ['approved' | 'rejected', string | null, number];
  extension?: string; // an extension request awaiting the administrator
  /** The administrator's answer to that request: decision, note, days ago (the request is made the day before). */
  extensionDecision?: ['approved' | 'declined', string | null, number];
  milestones?: Array<[name: string, dayOffsetFromSubmission: number, MilestoneStatus]>;
  team?: string[];
  orders?: string[];
}
