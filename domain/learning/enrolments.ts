import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';
import { grade, type GradedQuestion, type QuestionResult } from './grading';
import { isLearnerRole, type LearnerRole } from './vocabulary';

/**
 * One person's enrolment in one course: lessons done, graded quiz attempts, and the certification a
 * pass of a certifying course grants. The certification lives in the enrolment's stream, so the pass
 * and the certificate it earns are written together or not at all; its id is the enrolment's own
 * derivation (one certification per person and course, renewed by passing again).
 *
 * Attempts count per course version, afresh after each pass: a new version (or a renewal) gives the
 * full number again. The course as it is now comes in with each command (a snapshot read from its
 * stream), as do the certification id and verification code of a first pass; time is the metadata's.
 */

export const DAY_MS = 86_400_000;
/** Days before the expiry on which the holder is reminded. */
export const EXPIRY_REMINDER_DAYS = [30, 7] as const;

export interface CourseSnapshot {
  id: string;
  status: 'draft' | 'published' | 'archived';
  version: number;
  audience: LearnerRole[];
  lessonIds: string[];
  quiz: Array<GradedQuestion & { choiceCount: number; kind: 'single' | 'multiple' }>;
  passMark: number;
  attemptsAllowed: number | null;
  certifying: boolean;
  validityDays: number | null;
}

export interface Certification {
  id: string;
  issuedAt: string;
  expiresAt: string;
  verificationCode: string;
  status: 'active' | 'expired';
  /** `${daysBefore}` reminders sent for the current expiry. */
  reminded: number[];
}

export interface LiveEnrolment {
  status: 'enrolled';
  id: string;
  userId: string;
  organisationId: string | null;
  courseId: string;
  /** The course version the attempts below count against. */
  courseVersion: number;
  completedLessons: string[];
  attemptsUsed: number;
  passedVersions: number[];
  certification: Certification | null;
}

export type EnrolmentState = { status: 'none' } | LiveEnrolment;

type Common = { enrolmentId: string };

export type EnrolmentEvent =
  | { type: 'EnrolmentStarted.v1'; data: Common & { userId: string; organisationId: string | null; courseId: string; courseVersion: number } }
  | { type: 'LessonCompleted.v1'; data: Common & { courseId: string; lessonId: string } }
  | { type: 'LessonReopened.v1'; data: Common & { courseId: string; lessonId: string } }
  | {
      type: 'AttemptSubmitted.v1';
      data: Common & {
        attemptId: string;
        userId: string;
        courseId: string;
        courseVersion: number;
        answers: number[][];
        results: QuestionResult[];
        score: number;
        passMark: number;
        passed: boolean;
        /** 1-based within the version since the last pass. */
        attemptNumber: number;
        attemptsAllowed: number | null;
      };
    }
  | {
      type: 'CertificationGranted.v1';
      data: Common & {
        certificationId: string;
        userId: string;
        organisationId: string | null;
        courseId: string;
        courseVersion: number;
        issuedAt: string;
        expiresAt: string;
        verificationCode: string;
      };
    }
  | {
      type: 'CertificationRenewed.v1';
      data: Common & {
        certificationId: string;
        userId: string;
        courseId: string;
        courseVersion: number;
        issuedAt: string;
        expiresAt: string;
        previousExpiresAt: string;
      };
    }
  | {
      type: 'CertificationExpiryReminderSent.v1';
      data: Common & { certificationId: string; userId: string; courseId: string; expiresAt: string; daysBefore: number };
    }
  | {
      type: 'CertificationExpired.v1';
      data: Common & { certificationId: string; userId: string; organisationId: string | null; courseId: string; expiresAt: string };
    };

export type EnrolmentCommand =
  | { type: 'Enrol'; enrolmentId: string; userId: string; userRole: string; organisationId: string | null; course: CourseSnapshot }
  | { type: 'MarkLesson'; lessonId: string; done: boolean; course: CourseSnapshot }
  | {
      type: 'SubmitAttempt';
      attemptId: string;
      answers: number[][];
      course: CourseSnapshot;
      certification: { certificationId: string; verificationCode: string };
    }
  /** The worker, `daysBefore` days before the expiry: refuses early; nothing for a stale expiry or a reminder already sent. */
  | { type: 'RemindCertificationExpiry'; certificationId: string; expiresAt: string; daysBefore: number }
  /** The worker, at the expiry: refuses early and a second time; nothing for a certification renewed since. */
  | { type: 'ExpireCertification'; certificationId: string; expiresAt: string };

export const ENROLMENT_MESSAGES = {
  enrolled: 'Enrolled',
  progress: 'Progress saved',
  notEnrolled: 'Enrol in the course first.',
  notFound: 'Enrolment not found.',
  courseNotOpen: 'This course is not open for enrolment.',
  notForYourRole: 'This course is not offered to your role.',
  notALearner: 'Only partners, distributors and their team members take courses.',
  unknownLesson: 'This lesson is not part of the course.',
  noQuiz: 'This course has no quiz.',
  answerEveryQuestion: (count: number) => `Send one list of chosen choices for each of the ${count} questions.`,
  choiceOutOfRange: (n: number) => `Question ${n}: a chosen choice does not exist.`,
  singleChoice: (n: number) => `Question ${n}: choose one answer.`,
  attemptsUsed: 'You have used every attempt at this version of the quiz.',
  certificationNotFound: 'Certification not found.',
  notDue: 'The certification does not expire yet.',
  reminderNotDue: 'This reminder is not due yet.',
  alreadyExpired: 'The certification has already expired.',
} as const;

const invalid = (field: string, message: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field, message }]);

function existing(state: EnrolmentState): LiveEnrolment {
  if (state.status === 'none') throw new DomainError('not_found', 'NOT_ENROLLED', ENROLMENT_MESSAGES.notEnrolled);
  return state;
}

/** Attempts used on the course's current version since the last pass. */
export const attemptsUsedOn = (enrolment: LiveEnrolment, version: number) => (enrolment.courseVersion === version ? enrolment.attemptsUsed : 0);

export const reminderDueAt = (expiresAt: string, daysBefore: number) => new Date(Date.parse(expiresAt) - daysBefore * DAY_MS).toISOString();

function certificationOf(enrolment: LiveEnrolment, certificationId: string): Certification {
  if (!enrolment.certification || enrolment.certification.id !== certificationId)
    throw new DomainError('not_found', 'NOT_FOUND', ENROLMENT_MESSAGES.certificationNotFound);
  return enrolment.certification;
}

export function decide(command: EnrolmentCommand, state: EnrolmentState, metadata: CommandMetadata): EnrolmentEvent[] {
  switch (command.type) {
    case 'Enrol': {
      if (state.status !== 'none') return [];
      const { course } = command;
      if (course.status !== 'published') throw new DomainError('conflict', 'COURSE_NOT_OPEN', ENROLMENT_MESSAGES.courseNotOpen);
      if (!isLearnerRole(command.userRole)) throw new DomainError('forbidden', 'NOT_A_LEARNER', ENROLMENT_MESSAGES.notALearner);
      if (!course.audience.includes(command.userRole)) throw new DomainError('forbidden', 'COURSE_NOT_FOR_ROLE', ENROLMENT_MESSAGES.notForYourRole);
      return [
        {
          type: 'EnrolmentStarted.v1',
          data: {
            enrolmentId: command.enrolmentId,
            userId: command.userId,
            organisationId: command.organisationId,
            courseId: course.id,
            courseVersion: course.version,
          },
        },
      ];
    }
    case 'MarkLesson': {
      const enrolment = existing(state);
      if (!command.course.lessonIds.includes(command.lessonId)) throw new DomainError('not_found', 'LESSON_NOT_FOUND', ENROLMENT_MESSAGES.unknownLesson);
      const done = enrolment.completedLessons.includes(command.lessonId);
      if (done === command.done) return [];
      const data = { enrolmentId: enrolment.id, courseId: enrolment.courseId, lessonId: command.lessonId };
      return [command.done ? { type: 'LessonCompleted.v1', data } : { type: 'LessonReopened.v1', data }];
    }
    case 'SubmitAttempt': {
      const enrolment = existing(state);
      const { course } = command;
      if (course.status !== 'published') throw new DomainError('conflict', 'COURSE_NOT_OPEN', ENROLMENT_MESSAGES.courseNotOpen);
      if (course.quiz.length === 0) throw new DomainError('conflict', 'NO_QUIZ', ENROLMENT_MESSAGES.noQuiz);
      if (command.answers.length !== course.quiz.length) throw invalid('answers', ENROLMENT_MESSAGES.answerEveryQuestion(course.quiz.length));
      course.quiz.forEach((question, index) => {
        const chosen = new Set(command.answers[index]);
        if ([...chosen].some((c) => c < 0 || c >= question.choiceCount)) throw invalid(`answers.${index}`, ENROLMENT_MESSAGES.choiceOutOfRange(index + 1));
        if (question.kind === 'single' && chosen.size > 1) throw invalid(`answers.${index}`, ENROLMENT_MESSAGES.singleChoice(index + 1));
      });
      const used = attemptsUsedOn(enrolment, course.version);
      if (course.attemptsAllowed !== null && used >= course.attemptsAllowed)
        throw new DomainError('conflict', 'ATTEMPTS_USED_UP', ENROLMENT_MESSAGES.attemptsUsed);
      const result = grade(course.quiz, command.answers, course.passMark);
      const events: EnrolmentEvent[] = [
        {
          type: 'AttemptSubmitted.v1',
          data: {
            enrolmentId: enrolment.id,
            attemptId: command.attemptId,
            userId: enrolment.userId,
            courseId: course.id,
            courseVersion: course.version,
            answers: result.results.map((r) => r.chosen),
            results: result.results,
            score: result.score,
            passMark: course.passMark,
            passed: result.passed,
            attemptNumber: used + 1,
            attemptsAllowed: course.attemptsAllowed,
          },
        },
      ];
      if (!result.passed || !course.certifying || !course.validityDays) return events;
      const issuedAt = metadata.now;
      const expiresAt = new Date(Date.parse(issuedAt) + course.validityDays * DAY_MS).toISOString();
      const current = enrolment.certification;
      if (!current) {
        events.push({
          type: 'CertificationGranted.v1',
          data: {
            enrolmentId: enrolment.id,
            certificationId: command.certification.certificationId,
            userId: enrolment.userId,
            organisationId: enrolment.organisationId,
            courseId: course.id,
            courseVersion: course.version,
            issuedAt,
            expiresAt,
            verificationCode: command.certification.verificationCode,
          },
        });
      } else {
        events.push({
          type: 'CertificationRenewed.v1',
          data: {
            enrolmentId: enrolment.id,
            certificationId: current.id,
            userId: enrolment.userId,
            courseId: course.id,
            courseVersion: course.version,
            issuedAt,
            expiresAt,
            previousExpiresAt: current.expiresAt,
          },
        });
      }
      return events;
    }
    case 'RemindCertificationExpiry': {
      const enrolment = existing(state);
      const certification = certificationOf(enrolment, command.certificationId);
      if (certification.status !== 'active' || certification.expiresAt !== command.expiresAt || certification.reminded.includes(command.daysBefore)) return [];
      if (Date.parse(metadata.now) < Date.parse(reminderDueAt(command.expiresAt, command.daysBefore)))
        throw new DomainError('conflict', 'REMINDER_NOT_DUE', ENROLMENT_MESSAGES.reminderNotDue);
      return [
        {
          type: 'CertificationExpiryReminderSent.v1',
          data: {
            enrolmentId: enrolment.id,
            certificationId: certification.id,
            userId: enrolment.userId,
            courseId: enrolment.courseId,
            expiresAt: certification.expiresAt,
            daysBefore: command.daysBefore,
          },
        },
      ];
    }
    case 'ExpireCertification': {
      const enrolment = existing(state);
      const certification = certificationOf(enrolment, command.certificationId);
      if (certification.expiresAt !== command.expiresAt) return [];
      if (certification.status === 'expired') throw new DomainError('conflict', 'CERTIFICATION_EXPIRED', ENROLMENT_MESSAGES.alreadyExpired);
      if (Date.parse(metadata.now) < Date.parse(certification.expiresAt)) throw new DomainError('conflict', 'CERTIFICATION_NOT_DUE', ENROLMENT_MESSAGES.notDue);
      return [
        {
          type: 'CertificationExpired.v1',
          data: {
            enrolmentId: enrolment.id,
            certificationId: certification.id,
            userId: enrolment.userId,
            organisationId: enrolment.organisationId,
            courseId: enrolment.courseId,
            expiresAt: certification.expiresAt,
          },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

export function evolve(state: EnrolmentState, event: EnrolmentEvent): EnrolmentState {
  if (event.type === 'EnrolmentStarted.v1') {
    const d = event.data;
    return {
      status: 'enrolled',
      id: d.enrolmentId,
      userId: d.userId,
      organisationId: d.organisationId,
      courseId: d.courseId,
      courseVersion: d.courseVersion,
      completedLessons: [],
      attemptsUsed: 0,
      passedVersions: [],
      certification: null,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'LessonCompleted.v1':
      return { ...state, completedLessons: [...state.completedLessons, event.data.lessonId] };
    case 'LessonReopened.v1':
      return { ...state, completedLessons: state.completedLessons.filter((id) => id !== event.data.lessonId) };
    case 'AttemptSubmitted.v1': {
      const d = event.data;
      const used = (state.courseVersion === d.courseVersion ? state.attemptsUsed : 0) + 1;
      if (d.passed)
        return { ...state, courseVersion: d.courseVersion, attemptsUsed: 0, passedVersions: [...new Set([...state.passedVersions, d.courseVersion])] };
      return { ...state, courseVersion: d.courseVersion, attemptsUsed: used };
    }
    case 'CertificationGranted.v1': {
      const d = event.data;
      return {
        ...state,
        certification: {
          id: d.certificationId,
          issuedAt: d.issuedAt,
          expiresAt: d.expiresAt,
          verificationCode: d.verificationCode,
          status: 'active',
          reminded: [],
        },
      };
    }
    case 'CertificationRenewed.v1':
      return state.certification
        ? {
            ...state,
            certification: { ...state.certification, issuedAt: event.data.issuedAt, expiresAt: event.data.expiresAt, status: 'active', reminded: [] },
          }
        : state;
    case 'CertificationExpiryReminderSent.v1':
      return state.certification
        ? { ...state, certification: { ...state.certification, reminded: [...state.certification.reminded, event.data.daysBefore] } }
        : state;
    case 'CertificationExpired.v1':
      return state.certification ? { ...state, certification: { ...state.certification, status: 'expired' } } : state;
    default:
      return assertNever(event);
  }
}

export const enrolments: Decider<EnrolmentState, EnrolmentCommand, EnrolmentEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  streamId: (id) => `enrolments-${id}`,
};
