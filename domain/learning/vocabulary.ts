/** The words of the learning module, shared by the deciders, the contract and the screens. */

/** Who learns: the organisation accounts and their team members. */
export const LEARNER_ROLES = ['partner', 'distributor', 'partner_user', 'distributor_user'] as const;
export type LearnerRole = (typeof LEARNER_ROLES)[number];
export const isLearnerRole = (role: string | null | undefined): role is LearnerRole =>
  typeof role === 'string' && (LEARNER_ROLES as readonly string[]).includes(role);

export const COURSE_LEVELS = ['beginner', 'intermediate', 'advanced'] as const;
export type CourseLevel = (typeof COURSE_LEVELS)[number];

export const COURSE_STATUSES = ['draft', 'published', 'archived'] as const;
export type CourseStatus = (typeof COURSE_STATUSES)[number];

export const CERTIFICATION_STATUSES = ['active', 'expired'] as const;
export type CertificationStatus = (typeof CERTIFICATION_STATUSES)[number];

/** enrolled, in_progress (a lesson done), completed (every lesson, quiz not passed yet), passed, failed (attempts used up). */
export const ENROLMENT_STATUSES = ['enrolled', 'in_progress', 'completed', 'passed', 'failed'] as const;
export type EnrolmentStatus = (typeof ENROLMENT_STATUSES)[number];

export const ASSIGNMENT_STATUSES = ['open', 'completed', 'cancelled'] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

/** The media kinds a lesson file may be. */
export const LESSON_MEDIA_TYPES = ['video', 'pdf', 'image'] as const;
export type LessonMediaType = (typeof LESSON_MEDIA_TYPES)[number];

/** A lesson's media, as the API names its fields. */
export type LessonMedia =
  | { kind: 'upload'; file: string; type: LessonMediaType; file_name?: string }
  | { kind: 'link'; url: string; type?: LessonMediaType }
  | { kind: 'resource'; resource_id: string };
