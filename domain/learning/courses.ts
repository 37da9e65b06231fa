import { PRODUCT_CATEGORIES } from '../products/products';
import { assertNever, DomainError, type Decider } from '../decider';
import type { CourseLevel, LearnerRole, LessonMedia } from './vocabulary';

/**
 * Courses: lessons and an optional quiz, written by admins. A course starts as a draft that only
 * admins see; publishing makes it version 1. Changing a published course publishes the next version
 * at once (learners always see one current version): what people earned on an earlier version stays
 * theirs, and attempts count afresh on the new one. Archiving withdraws the course from the catalogue.
 *
 * Lesson and question ids come in with the command (kept across versions so progress survives a change).
 */

export interface Lesson {
  id: string;
  title: string;
  body: string;
  media: LessonMedia | null;
}

export interface Question {
  id: string;
  question: string;
  choices: string[];
  /** Indices of the right choices, ascending. */
  correct: number[];
  kind: 'single' | 'multiple';
  explanation: string | null;
}

export interface CourseContent {
  title: string;
  summary: string;
  audience: LearnerRole[];
  productCategories: string[];
  level: CourseLevel;
  estimatedMinutes: number;
  certifying: boolean;
  /** Days a certification stays valid (certifying courses). */
  validityDays: number | null;
  /** Percent. */
  passMark: number;
  /** Per course version; null: unlimited. */
  attemptsAllowed: number | null;
  shuffleQuestions: boolean;
  lessons: Lesson[];
  quiz: Question[];
}

export type CourseStatus = 'draft' | 'published' | 'archived';

export interface LiveCourse {
  status: CourseStatus;
  id: string;
  /** The published version (0 before the first publication). */
  version: number;
  content: CourseContent;
}

export type CourseState = { status: 'none' } | LiveCourse;

type Common = { courseId: string };

export type CourseEvent =
  | { type: 'CourseCreated.v1'; data: Common & { content: CourseContent; createdBy: string | null; status: 'draft'; previousStatus: null } }
  | { type: 'CourseDraftChanged.v1'; data: Common & { content: CourseContent } }
  | { type: 'CoursePublished.v1'; data: Common & { version: number; content: CourseContent; status: 'published'; previousStatus: 'draft' | 'archived' } }
  /** A published course changed: its next version, published at once. */
  | { type: 'CourseRevised.v1'; data: Common & { version: number; content: CourseContent } }
  | { type: 'CourseArchived.v1'; data: Common & { reason: string | null; status: 'archived'; previousStatus: 'draft' | 'published' } };

export type CourseCommand =
  | { type: 'CreateCourse'; courseId: string; content: CourseContent; publish: boolean; createdBy: string | null }
  | { type: 'ChangeCourse'; content: CourseContent }
  | { type: 'PublishCourse' }
  | { type: 'ArchiveCourse'; reason: string | null };

export const COURSE_MESSAGES = {
  created: 'Course created',
  updated: 'Course updated',
  published: 'Course published',
  archived: 'Course archived',
  notFound: 'Course not found.',
  archivedNoChange: 'This course is archived; publish it again before changing it.',
  validityRequired: 'A certifying course needs its validity in days.',
  quizRequired: 'A certifying course needs a quiz.',
  lessonsRequired: 'A published course needs at least one lesson.',
  audienceRequired: 'Choose at least one audience role.',
  categoryInvalid: `Product categories must be among: ${PRODUCT_CATEGORIES.join(', ')}.`,
  correctOutOfRange: (n: number) => `Question ${n}: a right choice names a choice that does not exist.`,
  correctRepeated: (n: number) => `Question ${n}: a right choice is listed twice.`,
  singleNeedsOne: (n: number) => `Question ${n}: a single-choice question has exactly one right choice.`,
  choicesRepeated: (n: number) => `Question ${n}: two choices read the same.`,
  idRepeated: 'Two lessons or questions share an id.',
  passMarkRange: 'The pass mark is a percent from 0 to 100.',
} as const;

const invalid = (field: string, message: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field, message }]);

/** Refuses content that cannot be taught or graded; answers it normalized (trimmed, right choices sorted). */
export function normalizeContent(content: CourseContent, publishing: boolean): CourseContent {
  if (content.audience.length === 0) throw invalid('audience', COURSE_MESSAGES.audienceRequired);
  if (content.productCategories.some((c) => !(PRODUCT_CATEGORIES as readonly string[]).includes(c)))
    throw invalid('product_categories', COURSE_MESSAGES.categoryInvalid);
  if (!Number.isInteger(content.passMark) || content.passMark < 0 || content.passMark > 100) throw invalid('pass_mark', COURSE_MESSAGES.passMarkRange);
  if (content.certifying && !content.validityDays) throw invalid('validity_days', COURSE_MESSAGES.validityRequired);
  if (content.certifying && content.quiz.length === 0) throw invalid('quiz', COURSE_MESSAGES.quizRequired);
  if (publishing && content.lessons.length === 0) throw invalid('lessons', COURSE_MESSAGES.lessonsRequired);
  const ids = [...content.lessons.map((l) => l.id), ...content.quiz.map((q) => q.id)];
  if (new Set(ids).size !== ids.length) throw invalid('lessons', COURSE_MESSAGES.idRepeated);
  const quiz = content.quiz.map((q, index) => {
    const n = index + 1;
    const field = `quiz.${index}.correct`;
    if (q.correct.some((c) => c < 0 || c >= q.choices.length)) throw invalid(field, COURSE_MESSAGES.correctOutOfRange(n));
    if (new Set(q.correct).size !== q.correct.length) throw invalid(field, COURSE_MESSAGES.correctRepeated(n));
    if (q.kind === 'single' && q.correct.length !== 1) throw invalid(field, COURSE_MESSAGES.singleNeedsOne(n));
    const choices = q.choices.map((c) => c.trim());
    if (new Set(choices.map((c) => c.toLowerCase())).size !== choices.length) throw invalid(`quiz.${index}.choices`, COURSE_MESSAGES.choicesRepeated(n));
    return { ...q, question: q.question.trim(), choices, correct: [...q.correct].sort((a, b) => a - b), explanation: q.explanation?.trim() || null };
  });
  return {
    ...content,
    title: content.title.trim(),
    summary: content.summary.trim(),
    audience: [...new Set(content.audience)],
    productCategories: [...new Set(content.productCategories)],
    validityDays: content.certifying ? content.validityDays : null,
    lessons: content.lessons.map((l) => ({ ...l, title: l.title.trim() })),
    quiz,
  };
}

function existing(state: CourseState): LiveCourse {
  if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', COURSE_MESSAGES.notFound);
  return state;
}

const sameContent = (a: CourseContent, b: CourseContent) => JSON.stringify(a) === JSON.stringify(b);

export function decide(command: CourseCommand, state: CourseState): CourseEvent[] {
  switch (command.type) {
    case 'CreateCourse': {
      if (state.status !== 'none') return [];
      const content = normalizeContent(command.content, command.publish);
      const created: CourseEvent = {
        type: 'CourseCreated.v1',
        data: { courseId: command.courseId, content, createdBy: command.createdBy, status: 'draft', previousStatus: null },
      };
      if (!command.publish) return [created];
      return [created, { type: 'CoursePublished.v1', data: { courseId: command.courseId, version: 1, content, status: 'published', previousStatus: 'draft' } }];
    }
    case 'ChangeCourse': {
      const course = existing(state);
      if (course.status === 'archived') throw new DomainError('conflict', 'COURSE_ARCHIVED', COURSE_MESSAGES.archivedNoChange);
      const content = normalizeContent(command.content, course.status === 'published');
      if (sameContent(content, course.content)) return [];
      if (course.status === 'draft') return [{ type: 'CourseDraftChanged.v1', data: { courseId: course.id, content } }];
      return [{ type: 'CourseRevised.v1', data: { courseId: course.id, version: course.version + 1, content } }];
    }
    case 'PublishCourse': {
      const course = existing(state);
      if (course.status === 'published') return [];
      const content = normalizeContent(course.content, true);
      return [
        {
          type: 'CoursePublished.v1',
          data: { courseId: course.id, version: Math.max(course.version, 1), content, status: 'published', previousStatus: course.status },
        },
      ];
    }
    case 'ArchiveCourse': {
      const course = existing(state);
      if (course.status === 'archived') return [];
      return [
        { type: 'CourseArchived.v1', data: { courseId: course.id, reason: command.reason?.trim() || null, status: 'archived', previousStatus: course.status } },
      ];
    }
    default:
      return assertNever(command);
  }
}

export function evolve(state: CourseState, event: CourseEvent): CourseState {
  if (event.type === 'CourseCreated.v1') return { status: 'draft', id: event.data.courseId, version: 0, content: event.data.content };
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'CourseDraftChanged.v1':
      return { ...state, content: event.data.content };
    case 'CoursePublished.v1':
      return { ...state, status: 'published', version: event.data.version, content: event.data.content };
    case 'CourseRevised.v1':
      return { ...state, version: event.data.version, content: event.data.content };
    case 'CourseArchived.v1':
      return { ...state, status: 'archived' };
    default:
      return assertNever(event);
  }
}

export const courses: Decider<CourseState, CourseCommand, CourseEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide: (command, state) => decide(command, state),
  streamId: (id) => `courses-${id}`,
};
