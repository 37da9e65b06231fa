import { PRODUCT_CATEGORIES } from '../../domain/products/products';
import { DomainError, type CommandMetadata } from '../../domain/decider';
import { assignments } from '../../domain/learning/assignments';
import { courses, type CourseContent } from '../../domain/learning/courses';
import { DAY_MS, enrolments } from '../../domain/learning/enrolments';
import type { LearnerRole } from '../../domain/learning/vocabulary';
import { findUser } from '../../projections/users';
import { deterministicUuid } from '../../platform/commands/commandHandler';
import { runCommand } from '../../platform/commands/dispatch';
import { certificationIdOf, courseState, enrolmentIdOf, enrolmentState, newVerificationCode, snapshotOf } from '../../commands/learning';
import { demoUserId } from './identity';
import type { Seeder } from './seeder';
import { demoCalendar } from './timeline';

const [MANAGED, UNMANAGED, XTREME, INDUSTRIAL_MANAGED, INDUSTRIAL_UNMANAGED, ACCESSORIES, POWER] = PRODUCT_CATEGORIES;
const EVERYONE: LearnerRole[] = ['partner', 'partner_user', 'distributor', 'distributor_user'];

interface DemoCourse {
  slug: string;
  content: Omit<CourseContent, 'lessons' | 'quiz'> & {
    lessons: Array<Omit<CourseContent['lessons'][number], 'id'>>;
    quiz: Array<Omit<CourseContent['quiz'][number], 'id'>>;
  };
  published: boolean;
}

const lesson = (title: string, body: string, media: CourseContent['lessons'][number]['media'] = null) => ({ title, body, media });
const single = (question: string, choices: string[], right: number, explanation: string) => ({
  question,
  choices,
  correct: [right],
  kind: 'single' as const,
  explanation,
});
const multiple = (question: string, choices: string[], correct: number[], explanation: string) => ({
  question,
  choices,
  correct,
  kind: 'multiple' as const,
  explanation,
});

/** Six published courses across the catalogue's categories and the three levels, two of them certifying, and a draft. */
const DEMO_COURSES: readonly DemoCourse[] = [
  {
    slug: 'vlan-fundamentals',
    published: true,
    content: {
      title: 'Managed switches: VLAN fundamentals',
      summary:
        'Split one managed switch into several networks, trunk them between switches and check the result. Certifies sales engineers for managed switching.',
      audience: EVERYONE,
      productCategories: [MANAGED, INDUSTRIAL_MANAGED],
      level: 'beginner',
      estimatedMinutes: 40,
      certifying: true,
      validityDays: 365,
      passMark: 80,
      attemptsAllowed: 3,
      shuffleQuestions: true,
      lessons: [
        lesson(
          'What a VLAN is',
          'A VLAN groups ports into one broadcast domain, whatever switch they sit on.\n\n- Access ports carry one VLAN untagged.\n- Trunk ports carry many VLANs, tagged with 802.1Q.',
          {
            kind: 'link',
            url: 'https://www.youtube.com/watch?v=jC6MJTh9fRE',
            type: 'video',
          },
        ),
        lesson(
          'Trunks between switches',
          'A trunk carries every VLAN between two switches. Tag all VLANs but the native one, and keep the native VLAN the same on both ends.',
        ),
        lesson('Checking the configuration', 'Show the VLAN table and the trunk status on both switches; a mismatch of the native VLAN is the usual fault.'),
      ],
      quiz: [
        single('Which standard tags VLAN frames on a trunk?', ['802.1Q', '802.3af', '802.11ac'], 0, '802.1Q adds the 4-byte tag with the VLAN id.'),
        multiple(
          'Which ports carry more than one VLAN?',
          ['Access ports', 'Trunk ports', 'Hybrid ports'],
          [1, 2],
          'Access ports carry one VLAN; trunk and hybrid ports carry several.',
        ),
        single(
          'What must match on both ends of a trunk?',
          ['The port speed label', 'The native VLAN', 'The switch name'],
          1,
          'A native VLAN mismatch leaks traffic between VLANs.',
        ),
        single('How many VLAN ids can a tag carry?', ['256', '1024', '4094'], 2, 'The 12-bit field allows ids 1 to 4094.'),
        single(
          'Where is a VLAN a broadcast domain?',
          ['Across every port in it', 'On one switch only', 'Only on trunks'],
          0,
          'A VLAN spans every port assigned to it, on any switch.',
        ),
      ],
    },
  },
  {
    slug: 'industrial-installation-safety',
    published: true,
    content: {
      title: 'Industrial switch installation and safety',
      summary:
        'DIN-rail mounting, grounding, temperature ranges and safe power wiring for industrial switches. Required before installing industrial products on site.',
      audience: EVERYONE,
      productCategories: [INDUSTRIAL_MANAGED, INDUSTRIAL_UNMANAGED, POWER],
      level: 'intermediate',
      estimatedMinutes: 60,
      certifying: true,
      validityDays: 120,
      passMark: 75,
      attemptsAllowed: 2,
      shuffleQuestions: false,
      lessons: [
        lesson(
          'Mounting on a DIN rail',
          'Hook the top of the clip over the rail, press the bottom until it clicks, and leave the ventilation gaps of the datasheet free.',
        ),
        lesson('Grounding and power', 'Ground the chassis before connecting power. Use redundant power inputs from separate supplies where the site allows.'),
        lesson('Operating temperature', 'Industrial models run from -40 to 75 °C; check the cabinet does not exceed it in summer.'),
      ],
      quiz: [
        single('What do you connect first?', ['Power', 'The chassis ground', 'The uplink'], 1, 'Ground first, so a fault never energises the chassis.'),
        multiple(
          'Which make an installation safer?',
          ['Redundant power inputs', 'Blocking ventilation gaps', 'A grounded chassis'],
          [0, 2],
          'Redundant inputs and grounding; blocked ventilation overheats the switch.',
        ),
        single('What range do industrial models run in?', ['0 to 40 °C', '-40 to 75 °C', '-10 to 50 °C'], 1, 'Industrial-grade models are rated -40 to 75 °C.'),
        single('How is the switch held on the rail?', ['Screwed through the case', 'A spring clip', 'Cable ties'], 1, 'The DIN clip snaps onto the rail.'),
      ],
    },
  },
  {
    slug: 'selling-the-portfolio',
    published: true,
    content: {
      title: 'Selling the industrial networking portfolio',
      summary: 'Who buys industrial switches, which questions qualify a project, and how to position managed against unmanaged models.',
      audience: ['partner', 'partner_user', 'distributor'],
      productCategories: [INDUSTRIAL_MANAGED, INDUSTRIAL_UNMANAGED, XTREME],
      level: 'beginner',
      estimatedMinutes: 25,
      certifying: false,
      validityDays: null,
      passMark: 60,
      attemptsAllowed: null,
      shuffleQuestions: false,
      lessons: [
        lesson('Who buys', 'Plant engineers, system integrators and OEMs building machines. Each cares about uptime first and price second.'),
        lesson('Qualifying questions', 'How many devices, which protocols, what temperature, and who maintains the network after go-live?'),
      ],
      quiz: [
        single(
          'What does a plant engineer care about first?',
          ['Uptime', 'Colour of the case', 'Brand of cable'],
          0,
          'Downtime stops production; uptime wins the sale.',
        ),
      ],
    },
  },
  {
    slug: 'poe-planning',
    published: true,
    content: {
      title: 'PoE planning for field devices',
      summary: 'Budget Power over Ethernet for cameras, access points and sensors, and choose the right power supply.',
      audience: EVERYONE,
      productCategories: [MANAGED, POWER, ACCESSORIES],
      level: 'intermediate',
      estimatedMinutes: 35,
      certifying: false,
      validityDays: null,
      passMark: 70,
      attemptsAllowed: null,
      shuffleQuestions: false,
      lessons: [
        lesson('PoE classes', '802.3af gives up to 15.4 W per port, 802.3at 30 W and 802.3bt up to 90 W.'),
        lesson('The power budget', 'Add the class maximum of every device, then keep 20 % in reserve; the supply must cover the switch too.'),
      ],
      quiz: [single('How much does 802.3at give per port?', ['15.4 W', '30 W', '90 W'], 1, '802.3at (PoE+) gives up to 30 W.')],
    },
  },
  {
    slug: 'ring-redundancy',
    published: true,
    content: {
      title: 'Advanced ring redundancy',
      summary: 'Design rings that recover in under 50 ms, combine them with RSTP and troubleshoot a broken ring.',
      audience: ['partner', 'partner_user'],
      productCategories: [INDUSTRIAL_MANAGED, XTREME],
      level: 'advanced',
      estimatedMinutes: 90,
      certifying: false,
      validityDays: null,
      passMark: 80,
      attemptsAllowed: 5,
      shuffleQuestions: true,
      lessons: [
        lesson('Ring basics', 'One link of the ring is blocked; when another fails, the blocked link opens within 50 ms.'),
        lesson('Coupling rings', 'Couple rings through two switches so that a coupling link failure is survived too.'),
        lesson('Troubleshooting', 'Read the ring state on the ring manager first; a flapping port shows as repeated topology changes.'),
      ],
      quiz: [
        single(
          'How fast does a ring recover?',
          ['Under 50 ms', 'About 30 s', 'About 2 min'],
          0,
          'Ring protocols recover in under 50 ms, far faster than classic STP.',
        ),
        multiple(
          'What shows a flapping port?',
          ['Repeated topology changes', 'A steady link LED', 'Rising error counters'],
          [0, 2],
          'Topology changes and errors point at the flapping port.',
        ),
      ],
    },
  },
  {
    slug: 'distributor-rma',
    published: true,
    content: {
      title: 'Distributor logistics and RMA handling',
      summary: 'Stock rotation, serial number tracking and the RMA process, from the customer call to the replacement unit.',
      audience: ['distributor', 'distributor_user'],
      productCategories: [UNMANAGED, ACCESSORIES],
      level: 'beginner',
      estimatedMinutes: 20,
      certifying: false,
      validityDays: null,
      passMark: 50,
      attemptsAllowed: null,
      shuffleQuestions: false,
      lessons: [
        lesson('Serial numbers', 'Record the serial number of every unit you ship: the RMA starts from it.'),
        lesson('Opening an RMA', 'Open the RMA with the serial number and the fault; the replacement ships once the case is accepted.'),
      ],
      quiz: [
        single(
          'What does an RMA start from?',
          ['The invoice total', 'The serial number', 'The delivery date'],
          1,
          'The serial number identifies the unit and its warranty.',
        ),
      ],
    },
  },
  {
    slug: 'wireless-surveys',
    published: false,
    content: {
      title: 'Wireless site surveys',
      summary: 'Plan access point placement in plants with metal racks and moving machinery.',
      audience: ['partner', 'partner_user'],
      productCategories: [ACCESSORIES],
      level: 'advanced',
      estimatedMinutes: 50,
      certifying: false,
      validityDays: null,
      passMark: 70,
      attemptsAllowed: null,
      shuffleQuestions: false,
      lessons: [lesson('Why survey', 'Metal reflects and absorbs signal; a plan without a survey leaves dead spots.')],
      quiz: [],
    },
  },
];

export const demoCourseId = (slug: string) => deterministicUuid(`demo-course:${slug}`);
const contentOf = (course: DemoCourse): CourseContent => ({
  ...course.content,
  lessons: course.content.lessons.map((l, i) => ({ ...l, id: deterministicUuid(`demo-course:${course.slug}:lesson:${i}`) })),
  quiz: course.content.quiz.map((q, i) => ({ ...q, id: deterministicUuid(`demo-course:${course.slug}:question:${i}`) })),
});

/** What a demo person did in a course: lessons read and attempts (right answers or wrong ones), each so many days ago. */
interface DemoLearning {
  email: string;
  course: string;
  enrolledDaysAgo: number;
  lessonsDone: number;
  attempts: Array<{ daysAgo: number; pass: boolean }>;
  /** Mark the certification expired (its expiry passed in the demo history). */
  expired?: boolean;
}

/**
 * Lena (partner.user) holds a certification expiring within the month (passed 110 days ago, valid
 * 120); Tom (distributor.user) holds one that expired; the owners passed the VLAN course; Aisha
 * failed once and is still learning.
 */
const DEMO_LEARNING: readonly DemoLearning[] = [
  { email: 'partner@partnerhub.test', course: 'vlan-fundamentals', enrolledDaysAgo: 70, lessonsDone: 3, attempts: [{ daysAgo: 60, pass: true }] },
  {
    email: 'partner.user@partnerhub.test',
    course: 'vlan-fundamentals',
    enrolledDaysAgo: 160,
    lessonsDone: 3,
    attempts: [
      { daysAgo: 155, pass: false },
      { daysAgo: 150, pass: true },
    ],
  },
  {
    email: 'partner.user@partnerhub.test',
    course: 'industrial-installation-safety',
    enrolledDaysAgo: 115,
    lessonsDone: 3,
    attempts: [{ daysAgo: 110, pass: true }],
  },
  { email: 'partner.user@partnerhub.test', course: 'poe-planning', enrolledDaysAgo: 12, lessonsDone: 1, attempts: [] },
  { email: 'aisha.khan@northwind.test', course: 'vlan-fundamentals', enrolledDaysAgo: 20, lessonsDone: 2, attempts: [{ daysAgo: 15, pass: false }] },
  { email: 'distributor@partnerhub.test', course: 'vlan-fundamentals', enrolledDaysAgo: 95, lessonsDone: 3, attempts: [{ daysAgo: 90, pass: true }] },
  {
    email: 'distributor.user@partnerhub.test',
    course: 'industrial-installation-safety',
    enrolledDaysAgo: 165,
    lessonsDone: 3,
    attempts: [{ daysAgo: 160, pass: true }],
    expired: true,
  },
  { email: 'distributor.user@partnerhub.test', course: 'distributor-rma', enrolledDaysAgo: 8, lessonsDone: 2, attempts: [{ daysAgo: 7, pass: true }] },
  { email: 'ivan.petrov@atlas-distribution.test', course: 'poe-planning', enrolledDaysAgo: 5, lessonsDone: 0, attempts: [] },
];

/** Courses owners assigned, with due dates in days from today (negative: overdue). */
const DEMO_ASSIGNMENTS = [
  { owner: 'partner@partnerhub.test', member: 'partner.user@partnerhub.test', course: 'ring-redundancy', assignedDaysAgo: 30, dueInDays: -9 },
  { owner: 'partner@partnerhub.test', member: 'aisha.khan@northwind.test', course: 'vlan-fundamentals', assignedDaysAgo: 21, dueInDays: 14 },
  { owner: 'partner@partnerhub.test', member: 'partner.user@partnerhub.test', course: 'vlan-fundamentals', assignedDaysAgo: 165, dueInDays: -120 },
  {
    owner: 'distributor@partnerhub.test',
    member: 'distributor.user@partnerhub.test',
    course: 'industrial-installation-safety',
    assignedDaysAgo: 25,
    dueInDays: -4,
  },
  { owner: 'distributor@partnerhub.test', member: 'ivan.petrov@atlas-distribution.test', course: 'poe-planning', assignedDaysAgo: 6, dueInDays: 21 },
] as const;

/** Courses, enrolments, attempts, certifications and assignments, through the learning commands. */
export const seedLearning: Seeder = {
  name: 'learning',
  async run(services, seedMetadata) {
    const calendar = demoCalendar(services, seedMetadata);
    // Certifications need their own past (an expired one, one expiring within the month) even without demo history.
    const daysAgo = (days: number): CommandMetadata => calendar.at(days, 11);
    const admin = { actorId: demoUserId('admin@partnerhub.test'), actorRole: 'admin' };
    let coursesCreated = 0;
    for (const course of DEMO_COURSES) {
      const id = demoCourseId(course.slug);
      if ((await courseState(services, id)).status !== 'none') continue;
      await runCommand(
        services,
        courses,
        id,
        { type: 'CreateCourse', courseId: id, content: contentOf(course), publish: course.published, createdBy: admin.actorId },
        { ...daysAgo(190), ...admin },
      );
      coursesCreated++;
    }

    let certified = 0;
    let people = 0;
    for (const demo of DEMO_LEARNING) {
      const user = await findUser(services.pool, demoUserId(demo.email));
      if (!user || !user.is_active) continue;
      const course = await courseState(services, demoCourseId(demo.course));
      if (course.status === 'none') continue;
      const enrolmentId = enrolmentIdOf(user.id, course.id);
      if ((await enrolmentState(services, enrolmentId)).status !== 'none') continue;
      const snapshot = snapshotOf(course);
      const as = (days: number): CommandMetadata => ({ ...daysAgo(days), actorId: user.id, actorRole: user.role });
      const organisationId = user.parent_user_id ?? user.id;
      await runCommand(
        services,
        enrolments,
        enrolmentId,
        { type: 'Enrol', enrolmentId, userId: user.id, userRole: user.role, organisationId, course: snapshot },
        as(demo.enrolledDaysAgo),
      );
      for (const [index, lessonId] of snapshot.lessonIds.slice(0, demo.lessonsDone).entries()) {
        await runCommand(
          services,
          enrolments,
          enrolmentId,
          { type: 'MarkLesson', lessonId, done: true, course: snapshot },
          as(demo.enrolledDaysAgo - Math.min(index, demo.enrolledDaysAgo)),
        );
      }
      for (const attempt of demo.attempts) {
        const answers = snapshot.quiz.map((q) => (attempt.pass ? [...q.correct] : [q.correct[0] === 0 ? 1 : 0]));
        const result = await runCommand(
          services,
          enrolments,
          enrolmentId,
          {
            type: 'SubmitAttempt',
            attemptId: deterministicUuid(`demo-attempt:${enrolmentId}:${attempt.daysAgo}`),
            answers,
            course: snapshot,
            certification: { certificationId: certificationIdOf(enrolmentId), verificationCode: newVerificationCode() },
          },
          as(attempt.daysAgo),
        );
        if (result.events.some((e) => e.type === 'CertificationGranted.v1')) certified++;
      }
      const state = await enrolmentState(services, enrolmentId);
      if (demo.expired && state.status !== 'none' && state.certification) {
        const expiresAt = state.certification.expiresAt;
        const system = { now: expiresAt, actorId: null, actorRole: 'system' };
        // A running worker may expire it first (its job for a past expiry is due at once): that is the same fact.
        if (Date.parse(expiresAt) <= Date.now()) {
          await runCommand(
            services,
            enrolments,
            enrolmentId,
            { type: 'ExpireCertification', certificationId: state.certification.id, expiresAt },
            { ...seedMetadata, ...system },
          ).catch((error: unknown) => {
            if (!(error instanceof DomainError && error.code === 'CERTIFICATION_EXPIRED')) throw error;
          });
        }
      }
      people++;
    }

    let assigned = 0;
    for (const demo of DEMO_ASSIGNMENTS) {
      const owner = await findUser(services.pool, demoUserId(demo.owner));
      const member = await findUser(services.pool, demoUserId(demo.member));
      if (!owner || !member || !member.is_active) continue;
      const id = deterministicUuid(`demo-assignment:${demo.member}:${demo.course}`);
      const when = daysAgo(demo.assignedDaysAgo);
      const dueDate = new Date(Date.parse(seedMetadata.now) + demo.dueInDays * DAY_MS).toISOString().slice(0, 10);
      const result = await runCommand(
        services,
        assignments,
        id,
        {
          type: 'AssignCourse',
          assignmentId: id,
          actorOrganisationId: owner.id,
          memberOrganisationId: member.parent_user_id ?? member.id,
          userId: member.id,
          courseId: demoCourseId(demo.course),
          courseStatus: 'published',
          dueDate,
          note: demo.dueInDays < 0 ? 'Needed for the next site visit.' : null,
        },
        { ...when, actorId: owner.id, actorRole: owner.role },
      );
      if (result.events.length) assigned++;
    }
    return `${coursesCreated} courses, ${people} people learning (${certified} certifications), ${assigned} assignments`;
  },
};
