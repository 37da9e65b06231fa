import { z } from 'zod';
import { PRODUCT_CATEGORIES } from '../domain/products/products';
import {
  ASSIGNMENT_STATUSES,
  CERTIFICATION_STATUSES,
  COURSE_LEVELS,
  COURSE_STATUSES,
  ENROLMENT_STATUSES,
  LEARNER_ROLES,
  LESSON_MEDIA_TYPES,
} from '../domain/learning/vocabulary';
import { commandAnswer, createdAnswers, listAnswer, recordAnswer, statusHistoryAnswer } from './answers';

/**
 * Learning and certification: courses with lessons and a quiz, enrolments with progress, graded
 * attempts, certifications with expiry, and the courses organisation owners assign to their members.
 *
 * Who: admins hold Learning.Update (they write courses); partners, distributors and their team members
 * hold Learning.Read and learn with their own account; support and manufacturers read the catalogue and
 * certifications (Learning.Read) but do not enrol. An organisation owner is the partner or distributor
 * account itself (not its team members): it sees every member's enrolments, progress and certifications
 * and assigns courses. Learners never receive a question's `correct` choices nor its `explanation`
 * before they submit an attempt; the attempt's answer then says right/wrong per question and explains.
 *
 * Routes (all under /api; "learner" = partner, distributor, partner_user, distributor_user):
 * - GET    /courses                           Learning.Read   list (learners: published courses for their role; admins: all,
 *                                                            with `status`); search `q`, filters `audience` (a role),
 *                                                            `product_category`, `level`, `status`, `certifying`; sort `title`,
 *                                                            `level`, `estimated_minutes`, `updated_at`, `published_at`  -> courseListAnswer (rows: courseRow)
 * - GET    /courses/export                    Learning.Read   the same list as CSV (text/csv)
 * - POST   /courses                           Learning.Update create (draft or published)                     courseBody -> courseCreatedAnswers (admin view)
 * - GET    /courses/:id                       Learning.Read   one course: admins get courseAdminView, everyone else
 *                                                            courseLearnerView (no `correct`, no `explanation`)  -> courseAnswer
 * - PUT    /courses/:id                       Learning.Update change (any field of courseBody but `status`; a published
 *                                                            course's change publishes a new version)       courseUpdateBody -> courseAdminAnswer
 * - POST   /courses/:id/publish               Learning.Update draft -> published (version 1, or the next version)  -> courseAdminAnswer
 * - POST   /courses/:id/archive               Learning.Update withdraw from the catalogue (earned certifications stay) courseArchiveBody -> courseAdminAnswer
 * - GET    /courses/:id/history               Learning.Update status changes (the project's status history rows) -> courseHistoryAnswer
 * - GET    /courses/:id/versions              Learning.Update the course's versions (the project's versions answer)
 * - POST   /courses/:id/enrol                 learner         enrol yourself (repeating it is harmless)          -> enrolmentAnswer
 * - GET    /courses/:id/progress              learner         your enrolment in the course (404 before enrolling) -> enrolmentAnswer
 * - POST   /courses/:id/progress              learner         mark a lesson done                    progressBody -> enrolmentAnswer
 * - GET    /courses/:id/attempts              learner         your graded attempts, newest first             -> attemptListAnswer
 * - POST   /courses/:id/attempts              learner         submit answers; graded on the server  attemptBody -> attemptAnswer
 * - GET    /learning/enrolments               Learning.Read   yours; owners: every member's; admins: all; filters
 *                                                            `user_id`, `course_id`, `status`, `organisation_id`  -> enrolmentListAnswer
 * - GET    /certifications                    Learning.Read   yours; owners: the organisation's; admins/support/manufacturer: all;
 *                                                            filters `status`, `course_id`, `user_id`, `organisation_id`,
 *                                                            `expiring_within_days`; search `q`; sort `issued_at`, `expires_at`,
 *                                                            `course_title`, `user_name`, `status`            -> certificationListAnswer
 * - GET    /certifications/export             Learning.Read   the same list as CSV
 * - GET    /certifications/:id                Learning.Read   one (its holder, the holder's owner, admins)    -> certificationAnswer
 * - GET    /certifications/:id/certificate.pdf Learning.Read  the printable certificate (application/pdf)
 * - GET    /certifications/verify/:code       public          rate-limited per address                       -> verificationAnswer
 * - GET    /learning/assignments              Learning.Read   owners: their organisation's; members: theirs; admins: all;
 *                                                            filters `user_id`, `course_id`, `status`, `overdue` -> assignmentListAnswer
 * - POST   /learning/assignments              owner           assign a published course to a member (or yourself) assignmentBody -> assignmentCreatedAnswers
 * - POST   /learning/assignments/:id/cancel   owner           withdraw an open assignment                     -> assignmentAnswer
 * - GET    /learning/matrix                   owner, admin    people × courses (admins pass `organisation_id`) -> matrixAnswer
 * - GET    /learning/reports                  Learning.Update completions and pass rates per course          -> reportAnswer
 * - POST   /learning/media                    Learning.Update multipart upload of one lesson file (`file`: video, pdf
 *                                                            or image) -> mediaUploadAnswer; put its `media` in a lesson
 * - GET    /learning/media/:name              Learning.Read   the uploaded file
 *
 * Questions are answered in the course's order: `answers[i]` is the list of chosen choice indices of
 * `quiz[i]`. The screen may show them shuffled (`shuffle_questions`) but sends them back in that order.
 */

export {
  ASSIGNMENT_STATUSES,
  CERTIFICATION_STATUSES,
  COURSE_LEVELS,
  COURSE_STATUSES,
  ENROLMENT_STATUSES,
  LEARNER_ROLES,
  LESSON_MEDIA_TYPES,
  type AssignmentStatus,
  type CertificationStatus,
  type CourseLevel,
  type CourseStatus,
  type EnrolmentStatus,
  type LearnerRole,
} from '../domain/learning/vocabulary';

/** A course's status changes: the shape every record with statuses shares. */
export { statusHistoryAnswer as courseHistoryAnswer };

const uuid = z.uuid();
const timestamp = z.string().meta({ description: 'ISO 8601 date and time' });
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date such as 2026-12-31.');
const text = (max: number, label: string) => z.string().trim().min(1, `${label} is required.`).max(max, `${label} must be at most ${max} characters.`);

// ---------------------------------------------------------------------------------------------
// Request bodies

/** A lesson's media: an uploaded file (from POST /learning/media), a link, or a resources-library item. */
export const lessonMedia = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('upload'),
      /** The stored name answered by POST /learning/media. */
      file: z.string().min(1).max(200),
      type: z.enum(LESSON_MEDIA_TYPES),
      file_name: z.string().max(255).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('link'),
      url: z.url({ protocol: /^https?$/, message: 'Link must be an http(s) address.' }).max(2000),
      type: z.enum(LESSON_MEDIA_TYPES).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('resource'),
      resource_id: uuid,
    })
    .strict(),
]);
export type LessonMedia = z.infer<typeof lessonMedia>;

export const lessonInput = z
  .object({
    /** Keeps a lesson's identity (and learners' progress on it) across versions; new lessons leave it out. */
    id: uuid.optional(),
    title: text(200, 'Lesson title'),
    /** Rich text as Markdown; the screens never render it as raw HTML. */
    body: z.string().max(50_000, 'Lesson body must be at most 50000 characters.'),
    media: lessonMedia.nullable().optional(),
  })
  .strict();
export type LessonInput = z.infer<typeof lessonInput>;

export const questionInput = z
  .object({
    id: uuid.optional(),
    question: text(1000, 'Question'),
    choices: z.array(text(500, 'Choice')).min(2, 'A question needs at least 2 choices.').max(10, 'A question has at most 10 choices.'),
    /** Indices (0-based) of the right choices; a single-choice question has exactly one. */
    correct: z.array(z.number().int().min(0)).min(1, 'Mark at least one right choice.').max(10),
    /** single: one choice may be picked; multiple: any number. Default: single when one choice is right. */
    kind: z.enum(['single', 'multiple']).optional(),
    explanation: z.string().max(2000).optional(),
  })
  .strict();
export type QuestionInput = z.infer<typeof questionInput>;

const courseFields = {
  title: text(200, 'Title'),
  summary: z.string().trim().max(2000, 'Summary must be at most 2000 characters.'),
  audience: z.array(z.enum(LEARNER_ROLES)).min(1, 'Choose at least one audience role.').max(LEARNER_ROLES.length),
  product_categories: z.array(z.enum(PRODUCT_CATEGORIES)).max(PRODUCT_CATEGORIES.length).optional(),
  level: z.enum(COURSE_LEVELS),
  estimated_minutes: z.number().int().min(1, 'Estimated minutes must be at least 1.').max(10_000),
  certifying: z.boolean(),
  /** Days a certification stays valid; required when certifying. */
  validity_days: z.number().int().min(1).max(3650).nullable().optional(),
  /** Percent of questions to answer right to pass (0 – 100). */
  pass_mark: z.number().int().min(0).max(100),
  /** Attempts a learner has per course version; null or absent: unlimited. */
  attempts_allowed: z.number().int().min(1).max(100).nullable().optional(),
  shuffle_questions: z.boolean().optional(),
  lessons: z.array(lessonInput).max(100),
  quiz: z.array(questionInput).max(100),
};

export const courseExample = {
  title: 'Managed switches: VLAN basics',
  summary: 'Set up VLANs on managed industrial switches.',
  audience: ['partner', 'partner_user'],
  product_categories: ['Industrial Managed Switches'],
  level: 'beginner',
  estimated_minutes: 30,
  certifying: true,
  validity_days: 730,
  pass_mark: 80,
  attempts_allowed: 3,
  lessons: [
    {
      title: 'What a VLAN is',
      body: 'A VLAN splits one switch into several networks.',
      media: { kind: 'link', url: 'https://example.com/vlan.mp4', type: 'video' },
    },
  ],
  quiz: [{ question: 'Which tag carries the VLAN id?', choices: ['802.1Q', '802.3af', '802.11'], correct: [0], explanation: '802.1Q adds the VLAN tag.' }],
  status: 'draft',
} as const;

export const courseBody = z
  .object({ ...courseFields, status: z.enum(['draft', 'published']).optional() })
  .strict()
  .meta({ example: courseExample });
export type CourseBody = z.infer<typeof courseBody>;

/** PUT /courses/:id: any of the course's fields (status moves through publish/archive). */
export const courseUpdateBody = z
  .object(
    Object.fromEntries(Object.entries(courseFields).map(([key, schema]) => [key, schema.optional()])) as {
      [K in keyof typeof courseFields]: z.ZodOptional<(typeof courseFields)[K]>;
    },
  )
  .strict()
  .meta({ example: { title: 'Managed switches: VLANs and trunks', pass_mark: 75 } });
export type CourseUpdateBody = z.infer<typeof courseUpdateBody>;

export const courseArchiveBody = z
  .object({ reason: z.string().trim().max(500).optional() })
  .strict()
  .meta({ example: { reason: 'Replaced by the 2027 course.' } });

export const progressBody = z
  .object({ lesson_id: uuid, done: z.boolean().optional() })
  .strict()
  .meta({ example: { lesson_id: '8f5c2a3e-1b0d-4e7a-9c61-2d4b5e6f7a80', done: true } });
export type ProgressBody = z.infer<typeof progressBody>;

export const attemptBody = z
  .object({ answers: z.array(z.array(z.number().int().min(0).max(9)).max(10)).max(100) })
  .strict()
  .meta({ example: { answers: [[0]] } });
export type AttemptBody = z.infer<typeof attemptBody>;

export const assignmentBody = z
  .object({ user_id: uuid, course_id: uuid, due_date: day, note: z.string().trim().max(500).optional() })
  .strict()
  .meta({ example: { user_id: '5b7c9d1e-2f3a-4b5c-8d6e-7f8091a2b3c4', course_id: '8f5c2a3e-1b0d-4e7a-9c61-2d4b5e6f7a80', due_date: '2026-12-31' } });
export type AssignmentBody = z.infer<typeof assignmentBody>;

// ---------------------------------------------------------------------------------------------
// Answers

export const lessonView = z.object({
  id: uuid,
  position: z.number().int(),
  title: z.string(),
  body: z.string(),
  media: lessonMedia.nullable(),
  /** Where to fetch the media: the upload's URL, the link, or the resource's download; null without media. */
  media_url: z.string().nullable(),
});
export type LessonView = z.infer<typeof lessonView>;

/** A question as learners see it: no `correct`, no `explanation`. */
export const questionLearnerView = z.object({
  id: uuid,
  position: z.number().int(),
  question: z.string(),
  choices: z.array(z.string()),
  kind: z.enum(['single', 'multiple']),
});
export type QuestionLearnerView = z.infer<typeof questionLearnerView>;

export const questionAdminView = questionLearnerView.extend({
  correct: z.array(z.number().int()),
  explanation: z.string().nullable(),
});
export type QuestionAdminView = z.infer<typeof questionAdminView>;

/** The caller's own standing in a course (null: not enrolled); learners only. */
export const myCourseStanding = z.object({
  enrolment_id: uuid,
  status: z.enum(ENROLMENT_STATUSES),
  progress_percent: z.number().int(),
  completed_lessons: z.array(uuid),
  attempts_used: z.number().int(),
  attempts_left: z.number().int().nullable(),
  best_score: z.number().int().nullable(),
  certification_id: uuid.nullable(),
  certification_expires_at: timestamp.nullable(),
});
export type MyCourseStanding = z.infer<typeof myCourseStanding>;

/** A course in the catalogue list. */
export const courseRow = z.object({
  id: uuid,
  title: z.string(),
  summary: z.string(),
  audience: z.array(z.enum(LEARNER_ROLES)),
  product_categories: z.array(z.string()),
  level: z.enum(COURSE_LEVELS),
  estimated_minutes: z.number().int(),
  certifying: z.boolean(),
  validity_days: z.number().int().nullable(),
  pass_mark: z.number().int(),
  attempts_allowed: z.number().int().nullable(),
  shuffle_questions: z.boolean(),
  status: z.enum(COURSE_STATUSES),
  /** The published version learners see (0 while a course was never published). */
  version: z.number().int(),
  /** True when an admin's unpublished changes wait on top of the published version. */
  has_draft_changes: z.boolean(),
  lesson_count: z.number().int(),
  question_count: z.number().int(),
  /** Media kinds among the lessons, for the Training Videos / Tech Gallery views. */
  media_types: z.array(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
  published_at: timestamp.nullable(),
  /** Learners: their enrolment status in it (null: not enrolled); others: null. */
  my_status: z.enum(ENROLMENT_STATUSES).nullable(),
  my_progress_percent: z.number().int().nullable(),
  /** Learners: the due date of an open assignment of this course to them. */
  my_due_date: day.nullable(),
});
export type CourseRow = z.infer<typeof courseRow>;
export const courseListAnswer = listAnswer('courses', courseRow);

const courseViewBase = courseRow.extend({
  lessons: z.array(lessonView),
});

/** What admins (Learning.Update) get: the whole quiz, and their draft's pending state. */
export const courseAdminView = courseViewBase.extend({
  quiz: z.array(questionAdminView),
  my: z.null(),
});
export type CourseAdminView = z.infer<typeof courseAdminView>;

/** What everyone else gets: the quiz without answers, and their own standing. */
export const courseLearnerView = courseViewBase.extend({
  quiz: z.array(questionLearnerView),
  my: myCourseStanding.nullable(),
});
export type CourseLearnerView = z.infer<typeof courseLearnerView>;

export const courseAdminAnswer = recordAnswer(courseAdminView);
export const courseLearnerAnswer = recordAnswer(courseLearnerView);
/** GET /courses/:id: the admin view is tried first, so a learner's answer (no `correct`) falls through to the learner view. */
export const courseAnswer = z.union([courseAdminAnswer, courseLearnerAnswer]);
export const courseCreatedAnswers = createdAnswers(courseAdminView);

export const enrolmentRow = z.object({
  id: uuid,
  user_id: uuid,
  user_name: z.string(),
  user_email: z.string(),
  organisation_id: uuid.nullable(),
  course_id: uuid,
  course_title: z.string(),
  /** The course version enrolled in / last attempted. */
  course_version: z.number().int(),
  status: z.enum(ENROLMENT_STATUSES),
  completed_lessons: z.array(uuid),
  lessons_total: z.number().int(),
  progress_percent: z.number().int(),
  attempts_used: z.number().int(),
  attempts_allowed: z.number().int().nullable(),
  best_score: z.number().int().nullable(),
  enrolled_at: timestamp,
  last_activity_at: timestamp,
  passed_at: timestamp.nullable(),
});
export type EnrolmentRow = z.infer<typeof enrolmentRow>;
export const enrolmentAnswer = recordAnswer(enrolmentRow);
export const enrolmentListAnswer = listAnswer('enrolments', enrolmentRow);

export const attemptQuestionResult = z.object({
  position: z.number().int(),
  question_id: uuid,
  chosen: z.array(z.number().int()),
  /** The chosen set equals the right set exactly. */
  right: z.boolean(),
  explanation: z.string().nullable(),
});
export const attemptRow = z.object({
  id: uuid,
  enrolment_id: uuid,
  course_id: uuid,
  course_version: z.number().int(),
  /** Percent of questions answered right, rounded down. */
  score: z.number().int(),
  passed: z.boolean(),
  pass_mark: z.number().int(),
  submitted_at: timestamp,
  attempt_number: z.number().int(),
  attempts_left: z.number().int().nullable(),
  questions: z.array(attemptQuestionResult),
  /** Set when this attempt granted or renewed a certification. */
  certification_id: uuid.nullable(),
});
export type AttemptRow = z.infer<typeof attemptRow>;
export const attemptAnswer = recordAnswer(attemptRow);
export const attemptListAnswer = listAnswer('attempts', attemptRow);

export const certificationRow = z.object({
  id: uuid,
  user_id: uuid,
  user_name: z.string(),
  user_email: z.string(),
  organisation_id: uuid.nullable(),
  organisation_name: z.string().nullable(),
  course_id: uuid,
  course_title: z.string(),
  course_version: z.number().int(),
  issued_at: timestamp,
  expires_at: timestamp,
  status: z.enum(CERTIFICATION_STATUSES),
  verification_code: z.string(),
  /** How many times passing again renewed it. */
  renewals: z.number().int(),
  certificate_url: z.string(),
});
export type CertificationRow = z.infer<typeof certificationRow>;
export const certificationAnswer = recordAnswer(certificationRow);
export const certificationListAnswer = listAnswer('certifications', certificationRow);

/** The public verification: nothing about the person. Unknown codes answer valid false with nulls. */
export const verificationAnswer = z
  .object({
    valid: z.boolean(),
    course: z.string().nullable(),
    issued_at: timestamp.nullable(),
    expires_at: timestamp.nullable(),
  })
  .strict();
export type VerificationAnswer = z.infer<typeof verificationAnswer>;

export const assignmentRow = z.object({
  id: uuid,
  organisation_id: uuid,
  user_id: uuid,
  user_name: z.string(),
  course_id: uuid,
  course_title: z.string(),
  due_date: day,
  note: z.string().nullable(),
  assigned_by: uuid,
  assigned_at: timestamp,
  status: z.enum(ASSIGNMENT_STATUSES),
  completed_at: timestamp.nullable(),
  /** Open and past its due date (UTC). */
  overdue: z.boolean(),
});
export type AssignmentRow = z.infer<typeof assignmentRow>;
export const assignmentAnswer = recordAnswer(assignmentRow);
export const assignmentListAnswer = listAnswer('assignments', assignmentRow);
export const assignmentCreatedAnswers = createdAnswers(assignmentRow);

export const MATRIX_CELL_STATUSES = ['not_started', 'enrolled', 'in_progress', 'completed', 'passed', 'failed', 'certified', 'expired'] as const;
export const matrixAnswer = commandAnswer(
  z.object({
    organisation_id: uuid,
    people: z.array(z.object({ user_id: uuid, name: z.string(), email: z.string(), role: z.string() })),
    courses: z.array(z.object({ id: uuid, title: z.string(), certifying: z.boolean() })),
    cells: z.array(
      z.object({
        user_id: uuid,
        course_id: uuid,
        status: z.enum(MATRIX_CELL_STATUSES),
        progress_percent: z.number().int(),
        best_score: z.number().int().nullable(),
        due_date: day.nullable(),
        overdue: z.boolean(),
        certification_id: uuid.nullable(),
        certification_expires_at: timestamp.nullable(),
      }),
    ),
  }),
);
export type MatrixAnswer = z.infer<typeof matrixAnswer>;

export const reportRow = z.object({
  course_id: uuid,
  title: z.string(),
  status: z.enum(COURSE_STATUSES),
  version: z.number().int(),
  certifying: z.boolean(),
  enrolled: z.number().int(),
  completed: z.number().int(),
  passed: z.number().int(),
  attempts: z.number().int(),
  /** Passed people / people who attempted, percent; null before any attempt. */
  pass_rate: z.number().nullable(),
  /** Completed (every lesson or passed) / enrolled, percent; null before any enrolment. */
  completion_rate: z.number().nullable(),
  average_score: z.number().nullable(),
  active_certifications: z.number().int(),
});
export type ReportRow = z.infer<typeof reportRow>;
export const reportAnswer = commandAnswer(z.object({ courses: z.array(reportRow) }));

export const mediaUploadAnswer = commandAnswer(z.object({ media: lessonMedia, url: z.string(), size: z.number().int(), content_type: z.string() }));
export type MediaUploadAnswer = z.infer<typeof mediaUploadAnswer>;
