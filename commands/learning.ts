import { randomBytes } from 'node:crypto';
import type { CourseBody, CourseUpdateBody, LessonInput, QuestionInput } from '../contracts/learning';
import { fold, type CommandMetadata } from '../domain/decider';
import { assignments, type AssignmentState } from '../domain/learning/assignments';
import { courses, type CourseContent, type CourseState, type LiveCourse } from '../domain/learning/courses';
import { enrolments, type CourseSnapshot, type EnrolmentState } from '../domain/learning/enrolments';
import type { Services } from '../platform/services';
import { deterministicUuid } from '../platform/commands/commandHandler';
import { newId, runCommand } from '../platform/commands/dispatch';

type Deps = Pick<Services, 'store' | 'watcher'>;

export async function courseState(deps: Pick<Services, 'store'>, courseId: string): Promise<CourseState> {
  return fold(courses, (await deps.store.readStream(courses.streamId(courseId))) as never);
}

export async function enrolmentState(deps: Pick<Services, 'store'>, enrolmentId: string): Promise<EnrolmentState> {
  return fold(enrolments, (await deps.store.readStream(enrolments.streamId(enrolmentId))) as never);
}

export async function assignmentState(deps: Pick<Services, 'store'>, assignmentId: string): Promise<AssignmentState> {
  return fold(assignments, (await deps.store.readStream(assignments.streamId(assignmentId))) as never);
}

/** One enrolment per person and course: its id derives from both, so enrolling twice names the same record. */
export const enrolmentIdOf = (userId: string, courseId: string) => deterministicUuid(`enrolment:${userId}:${courseId}`);
/** One certification per enrolment, renewed in place. */
export const certificationIdOf = (enrolmentId: string) => deterministicUuid(`certification:${enrolmentId}`);

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** 12 random characters without look-alikes (0/O, 1/I), grouped for reading aloud: about 60 bits. */
export function newVerificationCode(): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
}

/** The course as the enrolment decider needs it, with the quiz's right choices (never sent to a learner). */
export function snapshotOf(course: LiveCourse): CourseSnapshot {
  const c = course.content;
  return {
    id: course.id,
    status: course.status,
    version: course.version,
    audience: c.audience,
    lessonIds: c.lessons.map((l) => l.id),
    quiz: c.quiz.map((q) => ({ id: q.id, correct: q.correct, explanation: q.explanation, choiceCount: q.choices.length, kind: q.kind })),
    passMark: c.passMark,
    attemptsAllowed: c.attemptsAllowed,
    certifying: c.certifying,
    validityDays: c.validityDays,
  };
}

const lessonFrom = (input: LessonInput) => ({ id: input.id ?? newId(), title: input.title, body: input.body, media: input.media ?? null });
const questionFrom = (input: QuestionInput) => ({
  id: input.id ?? newId(),
  question: input.question,
  choices: input.choices,
  correct: input.correct,
  kind: input.kind ?? (input.correct.length === 1 ? ('single' as const) : ('multiple' as const)),
  explanation: input.explanation ?? null,
});

/** A course body (or a change of some fields over the current content) as the decider's content. */
export function contentFrom(body: CourseBody | CourseUpdateBody, current?: CourseContent): CourseContent {
  const pick = <T>(value: T | undefined, fallback: T) => (value === undefined ? fallback : value);
  const base: CourseContent = current ?? {
    title: '',
    summary: '',
    audience: [],
    productCategories: [],
    level: 'beginner',
    estimatedMinutes: 1,
    certifying: false,
    validityDays: null,
    passMark: 0,
    attemptsAllowed: null,
    shuffleQuestions: false,
    lessons: [],
    quiz: [],
  };
  return {
    title: pick(body.title, base.title),
    summary: pick(body.summary, base.summary),
    audience: pick(body.audience, base.audience),
    productCategories: pick(body.product_categories, base.productCategories),
    level: pick(body.level, base.level),
    estimatedMinutes: pick(body.estimated_minutes, base.estimatedMinutes),
    certifying: pick(body.certifying, base.certifying),
    validityDays: pick(body.validity_days, base.validityDays),
    passMark: pick(body.pass_mark, base.passMark),
    attemptsAllowed: pick(body.attempts_allowed, base.attemptsAllowed),
    shuffleQuestions: pick(body.shuffle_questions, base.shuffleQuestions),
    lessons: body.lessons ? body.lessons.map(lessonFrom) : base.lessons,
    quiz: body.quiz ? body.quiz.map(questionFrom) : base.quiz,
  };
}

export async function createCourse(deps: Deps, courseId: string, body: CourseBody, metadata: CommandMetadata) {
  return runCommand(
    deps,
    courses,
    courseId,
    { type: 'CreateCourse', courseId, content: contentFrom(body), publish: body.status === 'published', createdBy: metadata.actorId },
    metadata,
  );
}

/** Grades an attempt against the course as it is now; a pass of a certifying course grants (or renews) the certification in the same write. */
export async function submitAttempt(deps: Deps, input: { userId: string; course: LiveCourse; answers: number[][] }, metadata: CommandMetadata) {
  const enrolmentId = enrolmentIdOf(input.userId, input.course.id);
  const attemptId = newId();
  await runCommand(
    deps,
    enrolments,
    enrolmentId,
    {
      type: 'SubmitAttempt',
      attemptId,
      answers: input.answers,
      course: snapshotOf(input.course),
      certification: { certificationId: certificationIdOf(enrolmentId), verificationCode: newVerificationCode() },
    },
    metadata,
  );
  return { enrolmentId, attemptId };
}
