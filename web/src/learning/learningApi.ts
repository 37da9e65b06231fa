/** The learning and certification calls of the portal, typed by the module's contract. */

import type {
  AssignmentBody,
  AssignmentRow,
  AttemptRow,
  CertificationRow,
  CourseAdminView,
  CourseBody,
  CourseLearnerView,
  CourseRow,
  CourseUpdateBody,
  EnrolmentRow,
  LessonMedia,
  MatrixAnswer,
  MediaUploadAnswer,
  ReportRow,
} from '@contracts/learning';
import { PRODUCT_CATEGORIES } from '@domain/products/products';
import { sendForm } from '../providers/sendForm';
import { downloadFile } from '../providers/download';
import { API_URL, httpClient } from '../providers/httpClient';
import { getAccessToken, getStoredUser } from '../providers/session';

export type { AssignmentRow, AttemptRow, CertificationRow, CourseAdminView, CourseBody, CourseLearnerView, CourseRow, EnrolmentRow, LessonMedia, ReportRow };
export type CourseView = CourseAdminView | CourseLearnerView;
export type Matrix = MatrixAnswer['data'];

// The contract's enumerations, repeated as plain values so no zod schema reaches the bundle.
export const LEVELS = ['beginner', 'intermediate', 'advanced'] as const;
export const LEVEL_LABELS: Record<string, string> = { beginner: 'Beginner', intermediate: 'Intermediate', advanced: 'Advanced' };
export const AUDIENCE_ROLES = ['partner', 'distributor', 'partner_user', 'distributor_user'] as const;
export const ROLE_LABELS: Record<string, string> = {
  partner: 'Partners',
  distributor: 'Distributors',
  partner_user: 'Partner team members',
  distributor_user: 'Distributor team members',
};
export const CATEGORIES: readonly string[] = PRODUCT_CATEGORIES;
export const STATUS_LABELS: Record<string, string> = {
  not_started: 'Not started',
  enrolled: 'Enrolled',
  in_progress: 'In progress',
  completed: 'Lessons done',
  passed: 'Passed',
  failed: 'Failed',
  certified: 'Certified',
  expired: 'Expired',
  active: 'Active',
  open: 'Open',
  cancelled: 'Cancelled',
  draft: 'Draft',
  published: 'Published',
  archived: 'Archived',
};
export const isLearnerRole = (role: string | null) => (AUDIENCE_ROLES as readonly string[]).includes(role ?? '');
/** The organisation's own account, which sees its members' learning and assigns courses. */
export const isOwnerRole = (role: string | null) => role === 'partner' || role === 'distributor';
export const myUserId = () => getStoredUser()?.id ?? null;

export interface ListParams {
  filter?: Record<string, unknown>;
  sort?: { field: string; order: 'ASC' | 'DESC' };
  /** First and last row (react-admin's range); at most 100 rows. */
  range?: [number, number];
}

const listQuery = ({ filter, sort, range }: ListParams) => {
  const clean = Object.fromEntries(Object.entries(filter ?? {}).filter(([, value]) => value !== undefined && value !== '' && value !== null));
  const params = new URLSearchParams({ filter: JSON.stringify(clean), range: JSON.stringify(range ?? [0, 99]) });
  if (sort) params.set('sort', JSON.stringify([sort.field, sort.order]));
  return params.toString();
};

/** A list answered as react-admin's array with its Content-Range total. */
async function list<Row>(path: string, params: ListParams): Promise<{ rows: Row[]; total: number }> {
  const { json, headers } = await httpClient<Row[]>(`${API_URL}${path}?${listQuery(params)}`);
  const total = Number(/\/(\d+)$/.exec(headers.get('content-range') ?? '')?.[1] ?? json.length);
  return { rows: json, total };
}

const get = async <T>(path: string) => (await httpClient<{ data: T }>(`${API_URL}${path}`)).json.data;
const send = async <T>(method: 'POST' | 'PUT', path: string, body?: Record<string, unknown>) =>
  (await httpClient<{ message?: string; data: T }>(`${API_URL}${path}`, { method, body: body ?? {} })).json;
const id = (value: string) => encodeURIComponent(value);

export const listCourses = (params: ListParams) => list<CourseRow>('/courses', params);
export const getCourse = (courseId: string) => get<CourseView>(`/courses/${id(courseId)}`);
export const createCourse = (body: CourseBody) => send<CourseAdminView>('POST', '/courses', body as Record<string, unknown>);
export const updateCourse = (courseId: string, body: CourseUpdateBody) =>
  send<CourseAdminView>('PUT', `/courses/${id(courseId)}`, body as Record<string, unknown>);
export const publishCourse = (courseId: string) => send<CourseAdminView>('POST', `/courses/${id(courseId)}/publish`);
export const archiveCourse = (courseId: string, reason?: string) => send<CourseAdminView>('POST', `/courses/${id(courseId)}/archive`, reason ? { reason } : {});

export const enrol = (courseId: string) => send<EnrolmentRow>('POST', `/courses/${id(courseId)}/enrol`);
export const markLesson = (courseId: string, lessonId: string, done: boolean) =>
  send<EnrolmentRow>('POST', `/courses/${id(courseId)}/progress`, { lesson_id: lessonId, done });
export const submitAttempt = (courseId: string, answers: number[][]) => send<AttemptRow>('POST', `/courses/${id(courseId)}/attempts`, { answers });
export const listAttempts = (courseId: string) => list<AttemptRow>(`/courses/${id(courseId)}/attempts`, {});

export const listEnrolments = (params: ListParams) => list<EnrolmentRow>('/learning/enrolments', params);
export const listCertifications = (params: ListParams) => list<CertificationRow>('/certifications', params);
export const getCertification = (certificationId: string) => get<CertificationRow>(`/certifications/${id(certificationId)}`);
export const listAssignments = (params: ListParams) => list<AssignmentRow>('/learning/assignments', params);
export const assignCourse = (body: AssignmentBody) => send<AssignmentRow>('POST', '/learning/assignments', body);
export const cancelAssignment = (assignmentId: string) => send<AssignmentRow>('POST', `/learning/assignments/${id(assignmentId)}/cancel`);
export const getMatrix = (organisationId?: string) => get<Matrix>(`/learning/matrix${organisationId ? `?organisation_id=${id(organisationId)}` : ''}`);
export const getReports = async () => (await get<{ courses: ReportRow[] }>('/learning/reports')).courses;

export const exportCertifications = (filter: Record<string, unknown>) => {
  const params = new URLSearchParams(
    Object.entries(filter)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => [k, String(v)]),
  );
  return downloadFile(`${API_URL}/certifications/export${params.size ? `?${params}` : ''}`, 'certifications.csv');
};
export const downloadCertificate = (certification: Pick<CertificationRow, 'id'>) =>
  downloadFile(`${API_URL}/certifications/${id(certification.id)}/certificate.pdf`, 'certificate.pdf');

/** Uploads one lesson file (video, PDF or image), reporting its progress (0–100). */
export const uploadMedia = async (file: File, onProgress: (percent: number) => void) =>
  (await sendForm<MediaUploadAnswer['data']>('POST', 'learning/media', {}, { file: [file] }, onProgress)).data;

/**
 * An uploaded lesson file as an object URL: the media route wants the session's bearer token, which a
 * `<video>` or `<img>` cannot send. Links and other addresses are used as they are.
 */
export async function mediaSource(url: string): Promise<string> {
  if (!url.startsWith(`${API_URL}/`)) return url;
  const token = getAccessToken();
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) throw new Error(`The lesson file could not be loaded (${response.status}).`);
  return URL.createObjectURL(await response.blob());
}

/** The kind of a lesson's media, for the player and the media views. */
export function mediaType(media: LessonMedia | null | undefined, url?: string | null): 'video' | 'pdf' | 'image' | 'link' | null {
  if (!media) return null;
  if (media.kind === 'upload') return media.type;
  if (media.kind === 'link') return media.type ?? (/\.(mp4|webm|ogg|mov)(\?|$)/i.test(url ?? media.url) ? 'video' : 'link');
  return 'pdf';
}

/** Days until a date (negative once past), counted on the calendar in UTC. */
export function daysUntil(value: string, now = Date.now()): number {
  const day = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate());
  const target = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  const targetDay = Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), target.getUTCDate());
  return Math.round((targetDay - day) / 86_400_000);
}

/** `in 12 days`, `today`, `3 days ago`. */
export function relativeDays(value: string, now = Date.now()): string {
  const days = daysUntil(value, now);
  if (days === 0) return 'today';
  if (days === 1) return 'tomorrow';
  if (days === -1) return 'yesterday';
  return days > 0 ? `in ${days} days` : `${-days} days ago`;
}

/** A date as `Dec 31, 2026` without the local time zone moving a plain day. */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}
