import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certifiedPeopleByOrganisation } from '../../projections/learning';
import { as, login, type Session } from '../testing/api';
import { pdfText } from '../testing/pdf';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
let admin: Session;
let partner: Session;
let member: Session;
let distributor: Session;
let distributorMember: Session;
let support: Session;

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const course = (overrides: Record<string, unknown> = {}) => ({
  title: `Firewall basics ${Math.random().toString(36).slice(2, 7)}`,
  summary: 'Zones, policies and NAT.',
  audience: ['partner', 'partner_user'],
  product_categories: ['Industrial Managed Switches'],
  level: 'intermediate',
  estimated_minutes: 45,
  certifying: true,
  validity_days: 365,
  pass_mark: 100,
  attempts_allowed: 2,
  lessons: [
    { title: 'Zones', body: 'A zone groups interfaces.', media: null },
    { title: 'Policies', body: 'Policies allow traffic between zones.', media: { kind: 'link', url: 'https://example.com/policies.mp4', type: 'video' } },
  ],
  quiz: [
    { question: 'What groups interfaces?', choices: ['A zone', 'A route'], correct: [0], explanation: 'Zones group interfaces.' },
    { question: 'Which are NAT kinds?', choices: ['Source NAT', 'Blue NAT', 'Destination NAT'], correct: [0, 2], explanation: 'Source and destination NAT.' },
  ],
  status: 'published',
  ...overrides,
});

async function createCourse(overrides: Record<string, unknown> = {}) {
  const response = await as(t.app, admin)({ method: 'POST', url: '/api/courses', payload: course(overrides) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { id: string; lessons: Array<{ id: string }>; quiz: Array<{ id: string; correct: number[] }>; version: number };
}

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  [admin, partner, member, distributor, distributorMember, support] = await Promise.all(
    ['admin', 'partner', 'partner.user', 'distributor', 'distributor.user', 'support'].map((name) => login(t.app, `${name}@partnerhub.test`)),
  );
});
afterAll(() => t?.close());

/** Every key anywhere in a JSON value. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, into));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysOf(v, into);
    }
  return into;
}

describe('courses', () => {
  it('admins create, publish and change courses into new versions; learners see only published courses for their role', async () => {
    const draft = await createCourse({ status: 'draft' });
    expect(draft.version).toBe(0);
    expect((await as(t.app, member)({ method: 'GET', url: `/api/courses/${draft.id}` })).statusCode).toBe(404);
    const published = await as(t.app, admin)({ method: 'POST', url: `/api/courses/${draft.id}/publish` });
    expect(published.json().data).toMatchObject({ status: 'published', version: 1 });
    expect((await as(t.app, member)({ method: 'GET', url: `/api/courses/${draft.id}` })).statusCode).toBe(200);
    // Not offered to distributors.
    expect((await as(t.app, distributorMember)({ method: 'GET', url: `/api/courses/${draft.id}` })).statusCode).toBe(404);
    const changed = await as(t.app, admin)({ method: 'PUT', url: `/api/courses/${draft.id}`, payload: { title: 'Firewall basics, 2nd edition' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ version: 2, title: 'Firewall basics, 2nd edition' });
    const versions = await as(t.app, admin)({ method: 'GET', url: `/api/courses/${draft.id}/versions` });
    expect(versions.json().data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const history = await as(t.app, admin)({ method: 'GET', url: `/api/courses/${draft.id}/history` });
    expect(history.json().data.map((h: { to_status: string }) => h.to_status)).toEqual(['draft', 'published']);
    expect((await as(t.app, member)({ method: 'PUT', url: `/api/courses/${draft.id}`, payload: { title: 'x' } })).statusCode).toBe(403);
  });

  it('refuses a certifying course without validity and a right choice that does not exist', async () => {
    const noValidity = await as(t.app, admin)({ method: 'POST', url: '/api/courses', payload: course({ validity_days: null }) });
    expect(noValidity.statusCode).toBe(400);
    expect(noValidity.json().error.message).toMatch(/validity/);
    const wrong = await as(
      t.app,
      admin,
    )({ method: 'POST', url: '/api/courses', payload: course({ quiz: [{ question: 'Q', choices: ['a', 'b'], correct: [3] }] }) });
    expect(wrong.statusCode).toBe(400);
    const unknownField = await as(t.app, admin)({ method: 'POST', url: '/api/courses', payload: { ...course(), colour: 'red' } });
    expect(unknownField.statusCode).toBe(400);
  });

  it('filters, sorts and exports the catalogue', async () => {
    const advanced = await createCourse({ level: 'advanced', product_categories: ['Industrial Unmanaged Switches'], title: 'Zeta advanced switching' });
    const list = await as(
      t.app,
      member,
    )({
      method: 'GET',
      url: `/api/courses?filter=${encodeURIComponent(JSON.stringify({ level: 'advanced', product_category: 'Industrial Unmanaged Switches' }))}&range=[0,99]&sort=["title","ASC"]`,
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().map((c: { id: string }) => c.id)).toContain(advanced.id);
    expect(list.json().every((c: { level: string }) => c.level === 'advanced')).toBe(true);
    const searched = await as(t.app, member)({ method: 'GET', url: '/api/courses?search=Zeta%20advanced' });
    expect(searched.json().data.courses.map((c: { id: string }) => c.id)).toEqual([advanced.id]);
    const csv = await as(t.app, member)({ method: 'GET', url: '/api/courses/export?level=advanced' });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('Zeta advanced switching');
    const bad = await as(t.app, member)({ method: 'GET', url: '/api/courses?level=expert' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('learning and certification', () => {
  it('a team member enrols, completes lessons, fails then passes; the pass grants a certification the owner sees, with a PDF and a public verification', async () => {
    const c = await createCourse();
    const enrol = await as(t.app, member)({ method: 'POST', url: `/api/courses/${c.id}/enrol` });
    expect(enrol.statusCode, enrol.body).toBe(200);
    expect(enrol.json().data).toMatchObject({ status: 'enrolled', progress_percent: 0, lessons_total: 2 });
    expect((await as(t.app, member)({ method: 'POST', url: `/api/courses/${c.id}/enrol` })).statusCode).toBe(200);
    const done = await as(t.app, member)({ method: 'POST', url: `/api/courses/${c.id}/progress`, payload: { lesson_id: c.lessons[0].id } });
    expect(done.json().data).toMatchObject({ status: 'in_progress', progress_percent: 50 });
    const bogusLesson = await as(t.app, member)({ method: 'POST', url: `/api/courses/${c.id}/progress`, payload: { lesson_id: c.quiz[0].id } });
    expect(bogusLesson.statusCode).toBe(404);

    const failed = await as(t.app, member)({ method: 'POST', url: `/api/courses/${c.id}/attempts`, payload: { answers: [[0], [0]] } });
    expect(failed.statusCode, failed.body).toBe(200);
    expect(failed.json().data).toMatchObject({ score: 50, passed: false, attempts_left: 1, certification_id: null });
    expect(failed.json().data.questions).toEqual([
      expect.objectContaining({ right: true, explanation: 'Zones group interfaces.' }),
      expect.objectContaining({ right: false, explanation: 'Source and destination NAT.' }),
    ]);
    const passed = await as(t.app, member)({ method: 'POST', url: `/api/courses/${c.id}/attempts`, payload: { answers: [[0], [2, 0]] } });
    expect(passed.json().data).toMatchObject({ score: 100, passed: true });
    const certificationId = passed.json().data.certification_id as string;
    expect(certificationId).toEqual(expect.any(String));

    const mine = await as(t.app, member)({ method: 'GET', url: '/api/certifications' });
    const cert = mine.json().data.certifications.find((x: { id: string }) => x.id === certificationId);
    expect(cert).toMatchObject({ user_id: member.user.id, organisation_id: partner.user.id, status: 'active', course_id: c.id });
    expect(Date.parse(cert.expires_at) - Date.parse(cert.issued_at)).toBe(365 * 86_400_000);
    // The owner sees it; another organisation does not.
    expect((await as(t.app, partner)({ method: 'GET', url: `/api/certifications/${certificationId}` })).statusCode).toBe(200);
    expect((await as(t.app, distributor)({ method: 'GET', url: `/api/certifications/${certificationId}` })).statusCode).toBe(404);
    const ownerList = await as(t.app, partner)({ method: 'GET', url: `/api/certifications?user_id=${member.user.id}` });
    expect(ownerList.json().data.certifications.map((x: { id: string }) => x.id)).toContain(certificationId);
    expect((await as(t.app, distributor)({ method: 'GET', url: `/api/certifications?user_id=${member.user.id}` })).json().data.certifications).toEqual([]);
    const csv = await as(t.app, partner)({ method: 'GET', url: '/api/certifications/export' });
    expect(csv.body).toContain(cert.verification_code);
    // The screen's CSV link: plain parameters, empty ones meaning any, q the search.
    const filtered = await as(
      t.app,
      partner,
    )({ method: 'GET', url: `/api/certifications/export?q=${encodeURIComponent(cert.course_title)}&status=active&course_id=&expiring_within_days=` });
    expect(filtered.statusCode, filtered.body).toBe(200);
    expect(filtered.body.trim().split('\r\n')).toHaveLength(2);
    expect((await as(t.app, partner)({ method: 'GET', url: '/api/certifications/export?status=lost' })).statusCode).toBe(400);

    const pdf = await as(t.app, member)({ method: 'GET', url: `/api/certifications/${certificationId}/certificate.pdf` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pdfText(pdf.rawPayload)).toContain(`Verification code: ${cert.verification_code}`);

    const verified = await t.app.inject({ method: 'GET', url: `/api/certifications/verify/${cert.verification_code}` });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ valid: true, course: cert.course_title, issued_at: cert.issued_at, expires_at: cert.expires_at });
    const unknown = await t.app.inject({ method: 'GET', url: '/api/certifications/verify/AAAA-BBBB-CCCC' });
    expect(unknown.json()).toEqual({ valid: false, course: null, issued_at: null, expires_at: null });

    // A new version keeps the certification and gives attempts again; passing again renews it.
    await as(t.app, admin)({ method: 'PUT', url: `/api/courses/${c.id}`, payload: { summary: 'Zones, policies, NAT and VPN.' } });
    const again = await as(t.app, member)({ method: 'POST', url: `/api/courses/${c.id}/attempts`, payload: { answers: [[0], [0, 2]] } });
    expect(again.json().data).toMatchObject({ course_version: 2, passed: true, attempt_number: 1, certification_id: certificationId });
    const renewed = (await as(t.app, member)({ method: 'GET', url: `/api/certifications/${certificationId}` })).json().data;
    expect(renewed).toMatchObject({ renewals: 1, course_version: 2, verification_code: cert.verification_code });
  });

  it('limits attempts, and refuses answers that do not fit the quiz', async () => {
    const c = await createCourse({ attempts_allowed: 1, certifying: false, validity_days: null });
    expect((await as(t.app, member)({ method: 'POST', url: `/api/courses/${c.id}/attempts`, payload: { answers: [[0], [0]] } })).statusCode).toBe(404);
    await as(t.app, member)({ method: 'POST', url: `/api/courses/${c.id}/enrol` });
    expect((await as(t.app, member)({ method: 'POST', url: `/api/courses/${c.id}/attempts`, payload: { answers: [[0]] } })).statusCode).toBe(400);
    expect((await as(t.app, member)({ method: 'POST', url: `/api/courses/${c.id}/attempts`, payload: { answers: [[0, 1], [0]] } })).statusCode).toBe(400);
    const first = await as(t.app, member)({ method: 'POST', url: `/api/courses/${c.id}/attempts`, payload: { answers: [[1], [0]] } });
    expect(first.json().data).toMatchObject({ passed: false, attempts_left: 0, certification_id: null });
    const second = await as(t.app, member)({ method: 'POST', url: `/api/courses/${c.id}/attempts`, payload: { answers: [[0], [0, 2]] } });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('ATTEMPTS_USED_UP');
    const progress = await as(t.app, member)({ method: 'GET', url: `/api/courses/${c.id}/progress` });
    expect(progress.json().data.status).toBe('failed');
    expect((await as(t.app, support)({ method: 'POST', url: `/api/courses/${c.id}/enrol` })).statusCode).toBe(403);
  });

  it('never sends a learner the right choices or explanations before an attempt, on any learning route', async () => {
    const c = await createCourse();
    const fresh = await login(t.app, 'partner@partnerhub.test');
    const urls = [
      '/api/courses?range=[0,99]',
      '/api/courses?page=1&limit=100',
      `/api/courses/${c.id}`,
      '/api/courses/export',
      `/api/courses/${c.id}/progress`,
      `/api/courses/${c.id}/attempts`,
      '/api/learning/enrolments',
      '/api/learning/assignments',
      '/api/certifications',
      '/api/learning/matrix',
    ];
    const check = async (session: Session) => {
      for (const url of urls) {
        const response = await as(t.app, session)({ method: 'GET', url });
        if (response.headers['content-type']?.toString().includes('json')) {
          const keys = keysOf(response.json());
          expect(keys.has('correct'), url).toBe(false);
          expect(keys.has('explanation'), url).toBe(false);
        }
        expect(response.body, url).not.toContain('Zones group interfaces.');
      }
    };
    await check(fresh);
    // Every GET route of the module, generated from the API itself, with the course (or the caller) as its :id.
    const generated = async (session: Session) => {
      for (const route of t.app.apiRoutes.filter((r) => r.method === 'GET' && /^\/api\/(courses|certifications|learning)(\/|$)/.test(r.url))) {
        for (const id of [c.id, session.user.id]) {
          const url = route.url.replace(':id', id).replace(':code', 'ZZZZ-ZZZZ-ZZZZ').replace(':name', `${id}.pdf`);
          const response = await as(t.app, session)({ method: 'GET', url, remoteAddress: `198.51.100.${Math.floor(Math.random() * 200)}` });
          const text = response.rawPayload.toString('latin1');
          expect(text.includes('"correct"'), `${url} answered ${response.statusCode}`).toBe(false);
          expect(text.includes('"explanation"'), url).toBe(false);
          expect(text.includes('Zones group interfaces.'), url).toBe(false);
        }
      }
    };
    await generated(fresh);
    await generated(member);
    const enrolled = await as(t.app, fresh)({ method: 'POST', url: `/api/courses/${c.id}/enrol` });
    expect(keysOf(enrolled.json()).has('correct')).toBe(false);
    const progressed = await as(t.app, fresh)({ method: 'POST', url: `/api/courses/${c.id}/progress`, payload: { lesson_id: c.lessons[1].id } });
    expect(keysOf(progressed.json()).has('correct')).toBe(false);
    await check(fresh);
    await generated(fresh);
    // The admins' view has them.
    const adminView = await as(t.app, admin)({ method: 'GET', url: `/api/courses/${c.id}` });
    expect(adminView.json().data.quiz[1].correct).toEqual([0, 2]);
  });

  it('verification answers only validity, the course and the dates, and is rate-limited per address', async () => {
    const answers = [];
    for (let i = 0; i < 25; i++)
      answers.push(await t.app.inject({ method: 'GET', url: '/api/certifications/verify/ZZZZ-ZZZZ-ZZZZ', remoteAddress: '203.0.113.9' }));
    expect(answers[0].statusCode).toBe(200);
    expect(Object.keys(answers[0].json()).sort()).toEqual(['course', 'expires_at', 'issued_at', 'valid']);
    expect(answers.at(-1)!.statusCode).toBe(429);
    expect((await t.app.inject({ method: 'GET', url: '/api/certifications/verify/ZZZZ-ZZZZ-ZZZZ', remoteAddress: '203.0.113.10' })).statusCode).toBe(200);
  });
});

describe('assignments and the training matrix', () => {
  it('owners assign courses to their people with a due date; members see theirs; the matrix shows people × courses', async () => {
    const c = await createCourse();
    const assigned = await as(
      t.app,
      partner,
    )({ method: 'POST', url: '/api/learning/assignments', payload: { user_id: member.user.id, course_id: c.id, due_date: inDays(10) } });
    expect(assigned.statusCode, assigned.body).toBe(201);
    const assignment = assigned.json().data;
    expect(assignment).toMatchObject({ status: 'open', overdue: false, user_id: member.user.id, organisation_id: partner.user.id });
    expect(
      (
        await as(
          t.app,
          partner,
        )({ method: 'POST', url: '/api/learning/assignments', payload: { user_id: member.user.id, course_id: c.id, due_date: inDays(10) } })
      ).statusCode,
    ).toBe(409);
    // Not another organisation's person, not by a member, not in the past.
    expect(
      (
        await as(
          t.app,
          distributor,
        )({ method: 'POST', url: '/api/learning/assignments', payload: { user_id: member.user.id, course_id: c.id, due_date: inDays(10) } })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await as(
          t.app,
          member,
        )({ method: 'POST', url: '/api/learning/assignments', payload: { user_id: member.user.id, course_id: c.id, due_date: inDays(10) } })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await as(
          t.app,
          partner,
        )({ method: 'POST', url: '/api/learning/assignments', payload: { user_id: partner.user.id, course_id: c.id, due_date: inDays(-3) } })
      ).statusCode,
    ).toBe(400);

    const mine = await as(t.app, member)({ method: 'GET', url: '/api/learning/assignments' });
    expect(mine.json().data.assignments.map((a: { id: string }) => a.id)).toContain(assignment.id);
    expect((await as(t.app, distributor)({ method: 'GET', url: `/api/learning/assignments/${assignment.id}` })).statusCode).toBe(404);
    const listed = await as(t.app, member)({ method: 'GET', url: '/api/courses?range=[0,99]' });
    expect(listed.json().find((row: { id: string }) => row.id === c.id).my_due_date).toBe(inDays(10));

    await as(t.app, member)({ method: 'POST', url: `/api/courses/${c.id}/enrol` });
    await as(t.app, member)({ method: 'POST', url: `/api/courses/${c.id}/attempts`, payload: { answers: [[0], [0, 2]] } });
    const completed = await as(t.app, partner)({ method: 'GET', url: `/api/learning/assignments/${assignment.id}` });
    expect(completed.json().data.status).toBe('completed');

    const matrix = await as(t.app, partner)({ method: 'GET', url: '/api/learning/matrix' });
    expect(matrix.statusCode, matrix.body).toBe(200);
    const data = matrix.json().data;
    expect(data.people.map((p: { user_id: string }) => p.user_id)).toEqual(expect.arrayContaining([partner.user.id, member.user.id]));
    expect(data.cells.find((cell: { user_id: string; course_id: string }) => cell.user_id === member.user.id && cell.course_id === c.id)).toMatchObject({
      status: 'certified',
      overdue: false,
      due_date: inDays(10),
    });
    expect((await as(t.app, member)({ method: 'GET', url: '/api/learning/matrix' })).statusCode).toBe(403);
    expect((await as(t.app, admin)({ method: 'GET', url: `/api/learning/matrix?organisation_id=${partner.user.id}` })).statusCode).toBe(200);

    const report = await as(t.app, admin)({ method: 'GET', url: '/api/learning/reports' });
    expect(report.json().data.courses.find((r: { course_id: string }) => r.course_id === c.id)).toMatchObject({
      enrolled: 1,
      passed: 1,
      pass_rate: 100,
      active_certifications: 1,
    });
  });

  it('cancels an open assignment (its owner only)', async () => {
    const c = await createCourse();
    const assigned = (
      await as(
        t.app,
        partner,
      )({ method: 'POST', url: '/api/learning/assignments', payload: { user_id: partner.user.id, course_id: c.id, due_date: inDays(3) } })
    ).json().data;
    expect((await as(t.app, distributor)({ method: 'POST', url: `/api/learning/assignments/${assigned.id}/cancel` })).statusCode).toBe(404);
    const cancelled = await as(t.app, partner)({ method: 'POST', url: `/api/learning/assignments/${assigned.id}/cancel` });
    expect(cancelled.json().data.status).toBe('cancelled');
    expect((await as(t.app, partner)({ method: 'POST', url: `/api/learning/assignments/${assigned.id}/cancel` })).statusCode).toBe(409);
  });
});

describe('lesson media', () => {
  it('admins upload a lesson file that learners can fetch', async () => {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'))]),
      'guide.pdf',
    );
    const body = new Request('http://x/', { method: 'POST', body: form });
    const uploaded = await as(
      t.app,
      admin,
    )({
      method: 'POST',
      url: '/api/learning/media',
      payload: Buffer.from(await body.arrayBuffer()),
      headers: { 'content-type': body.headers.get('content-type')! },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { media, url } = uploaded.json().data;
    expect(media).toMatchObject({ kind: 'upload', type: 'pdf' });
    const c = await createCourse({ lessons: [{ title: 'Guide', body: 'Read the guide.', media }] });
    const seen = (await as(t.app, member)({ method: 'GET', url: `/api/courses/${c.id}` })).json().data;
    expect(seen.lessons[0].media_url).toBe(url);
    expect((await as(t.app, member)({ method: 'GET', url })).statusCode).toBe(200);
    expect(
      (
        await as(
          t.app,
          member,
        )({
          method: 'POST',
          url: '/api/learning/media',
          payload: Buffer.from(await new Request('http://x/', { method: 'POST', body: form }).arrayBuffer()),
          headers: { 'content-type': body.headers.get('content-type')! },
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('the API documents every learning answer', () => {
  it('every learning route declares a response schema', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    };
    const learning = t.app.apiRoutes.filter((route) => /^\/api\/(courses|certifications|learning)(\/|$)/.test(route.url));
    expect(learning.length).toBeGreaterThanOrEqual(28);
    const missing = learning.filter((route) => {
      const operation = document.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      const responses = Object.keys(operation?.responses ?? {}).filter((status) => /^2/.test(status));
      return responses.length === 0;
    });
    expect(missing.map((route) => `${route.method} ${route.url}`)).toEqual([]);
  });
});

describe('demo data', () => {
  it('seeds six published courses across levels and categories, two certifying, with a certification expiring within the month, an expired one and overdue assignments', async () => {
    const all = (await as(t.app, admin)({ method: 'GET', url: '/api/courses?range=[0,99]&filter={"status":"published"}' })).json() as Array<{
      title: string;
      certifying: boolean;
      level: string;
      created_at: string;
    }>;
    const seeded = all.filter((c) => Date.parse(c.created_at) < Date.now() - 100 * 86_400_000);
    expect(seeded.length).toBeGreaterThanOrEqual(6);
    expect(seeded.filter((c) => c.certifying)).toHaveLength(2);
    expect(new Set(seeded.map((c) => c.level))).toEqual(new Set(['beginner', 'intermediate', 'advanced']));
    const lena = (await as(t.app, member)({ method: 'GET', url: '/api/certifications?expiring_within_days=31' })).json().data.certifications;
    expect(lena.length).toBeGreaterThanOrEqual(1);
    const tom = (await as(t.app, distributorMember)({ method: 'GET', url: '/api/certifications?status=expired' })).json().data.certifications;
    expect(tom).toHaveLength(1);
    const overdue = (await as(t.app, admin)({ method: 'GET', url: '/api/learning/assignments?overdue=true' })).json().data.assignments as Array<{
      organisation_id: string;
    }>;
    expect(new Set(overdue.map((a) => a.organisation_id))).toEqual(new Set([partner.user.id, distributor.user.id]));
  });
});

describe('certified people per organisation (for programme tiers)', () => {
  it('counts distinct people holding a certification at a moment, by its dates', async () => {
    const now = new Date();
    const before = (await certifiedPeopleByOrganisation(t.db.pool, now)).get(distributor.user.id) ?? 0;
    const c = await createCourse({ audience: ['distributor', 'distributor_user'] });
    await as(t.app, distributorMember)({ method: 'POST', url: `/api/courses/${c.id}/enrol` });
    const passed = await as(t.app, distributorMember)({ method: 'POST', url: `/api/courses/${c.id}/attempts`, payload: { answers: [[0], [0, 2]] } });
    expect(passed.json().data.passed).toBe(true);
    const after = await certifiedPeopleByOrganisation(t.db.pool, new Date());
    const holders = await t.db.pool.query<{ n: number }>(
      `SELECT count(DISTINCT user_id)::int AS n FROM read.certifications WHERE organisation_id = $1 AND issued_at <= now() AND now() < expires_at`,
      [distributor.user.id],
    );
    expect(after.get(distributor.user.id)).toBe(holders.rows[0].n);
    // Tom's expired demo certification does not count now, and a second certification of a person counts once.
    expect(after.get(distributor.user.id)).toBeLessThanOrEqual(before + 1);
    const c2 = await createCourse({ audience: ['distributor', 'distributor_user'] });
    await as(t.app, distributorMember)({ method: 'POST', url: `/api/courses/${c2.id}/enrol` });
    await as(t.app, distributorMember)({ method: 'POST', url: `/api/courses/${c2.id}/attempts`, payload: { answers: [[0], [0, 2]] } });
    expect((await certifiedPeopleByOrganisation(t.db.pool, new Date())).get(distributor.user.id)).toBe(after.get(distributor.user.id));
    // A year back, neither of today's certifications existed; a year and a day ahead, both have expired.
    const yearAgo = await certifiedPeopleByOrganisation(t.db.pool, new Date(Date.now() - 365 * 86_400_000));
    expect(yearAgo.get(distributor.user.id) ?? 0).toBeLessThan(after.get(distributor.user.id)!);
    const ahead = await certifiedPeopleByOrganisation(t.db.pool, new Date(Date.now() + 366 * 86_400_000));
    expect(ahead.get(distributor.user.id) ?? 0).toBe(0);
  });
});
