import { Box, Button, LinearProgress, Paper, TableCell, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { formatDate } from '../formatting';
import { EmptyState, Loading } from '../lists';
import { formatDay, listAssignments, listCertifications, listEnrolments, myUserId, relativeDays } from './learningApi';
import { ErrorRetry, OVERDUE_BG, StatusChip, useLoad } from './LearningParts';
import { certificationExpiry, CompactTable, OpenRow } from './LearningTable';

const hideOnPhone = { display: { xs: 'none', sm: 'table-cell' } } as const;

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, mb: 2, minWidth: 0 }} data-testid={testId}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** The caller's assignments (due dates, overdue first), enrolments with progress, and certifications with expiry. */
export default function MyLearning() {
  const navigate = useNavigate();
  const me = myUserId() ?? undefined;
  const { value, error, reload } = useLoad(async () => {
    const [assignments, enrolments, certifications] = await Promise.all([
      listAssignments({ filter: { user_id: me, status: 'open' } }),
      listEnrolments({ filter: { user_id: me } }),
      listCertifications({ filter: { user_id: me }, sort: { field: 'expires_at', order: 'ASC' } }),
    ]);
    return {
      assignments: assignments.rows.sort((a, b) => a.due_date.localeCompare(b.due_date)),
      enrolments: enrolments.rows.sort((a, b) => b.last_activity_at.localeCompare(a.last_activity_at)),
      certifications: certifications.rows,
    };
  }, [me]);

  if (error && !value) return <ErrorRetry error={error} onRetry={reload} />;
  if (!value) return <Loading />;
  const { assignments, enrolments, certifications } = value;

  return (
    <Box data-testid="my-learning">
      <Section title="Assigned to you" testId="my-assignments">
        {assignments.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            Nobody has assigned you a course. Courses your organisation assigns appear here with their due dates.
          </Typography>
        ) : (
          <CompactTable
            head={
              <>
                <TableCell>Course</TableCell>
                <TableCell>Due</TableCell>
                <TableCell sx={hideOnPhone}>Note</TableCell>
              </>
            }
          >
            {assignments.map((assignment) => (
              <OpenRow
                key={assignment.id}
                to={`/learning/courses/${assignment.course_id}`}
                testId={assignment.overdue ? 'assignment-overdue' : 'assignment'}
                bgcolor={assignment.overdue ? OVERDUE_BG : undefined}
              >
                <TableCell>{assignment.course_title}</TableCell>
                <TableCell
                  sx={{ color: assignment.overdue ? 'error.main' : undefined, fontWeight: assignment.overdue ? 600 : undefined, whiteSpace: 'nowrap' }}
                >
                  {formatDay(assignment.due_date)}
                  <Typography variant="caption" component="div">
                    {assignment.overdue ? `Overdue, due ${relativeDays(assignment.due_date)}` : `Due ${relativeDays(assignment.due_date)}`}
                  </Typography>
                </TableCell>
                <TableCell sx={hideOnPhone}>{assignment.note ?? '—'}</TableCell>
              </OpenRow>
            ))}
          </CompactTable>
        )}
      </Section>

      <Section title="Your courses" testId="my-enrolments">
        {enrolments.length === 0 ? (
          <EmptyState
            title="You have not enrolled in a course yet."
            message="Open the Courses tab, choose a course and enrol."
            action={
              <Button variant="outlined" size="small" onClick={() => navigate('/learning?tab=courses')}>
                Browse courses
              </Button>
            }
          />
        ) : (
          <CompactTable
            head={
              <>
                <TableCell>Course</TableCell>
                <TableCell>Status</TableCell>
                <TableCell sx={{ ...hideOnPhone, minWidth: 140 }}>Progress</TableCell>
                <TableCell align="right" sx={hideOnPhone}>
                  Best score
                </TableCell>
                <TableCell sx={hideOnPhone}>Last activity</TableCell>
              </>
            }
          >
            {enrolments.map((enrolment) => (
              <OpenRow key={enrolment.id} to={`/learning/courses/${enrolment.course_id}`} testId="enrolment">
                <TableCell>{enrolment.course_title}</TableCell>
                <TableCell>
                  <StatusChip status={enrolment.status} />
                </TableCell>
                <TableCell sx={hideOnPhone}>
                  <LinearProgress variant="determinate" value={enrolment.progress_percent} aria-label="Progress" />
                  <Typography variant="caption" color="text.secondary">
                    {enrolment.progress_percent}%
                  </Typography>
                </TableCell>
                <TableCell align="right" sx={hideOnPhone}>
                  {enrolment.best_score === null ? '—' : `${enrolment.best_score}%`}
                </TableCell>
                <TableCell sx={hideOnPhone}>{formatDate(enrolment.last_activity_at)}</TableCell>
              </OpenRow>
            ))}
          </CompactTable>
        )}
      </Section>

      <Section title="Your certifications" testId="my-certifications">
        {certifications.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No certifications yet. Passing a certifying course's quiz certifies you.
          </Typography>
        ) : (
          <CompactTable
            head={
              <>
                <TableCell>Course</TableCell>
                <TableCell>Expires</TableCell>
                <TableCell sx={hideOnPhone}>Issued</TableCell>
                <TableCell sx={hideOnPhone}>Status</TableCell>
              </>
            }
          >
            {certifications.map((certification) => {
              const { expired, sx } = certificationExpiry(certification);
              return (
                <OpenRow key={certification.id} to={`/learning/certifications/${certification.id}`} testId="certification">
                  <TableCell>{certification.course_title}</TableCell>
                  <TableCell sx={sx}>
                    {formatDay(certification.expires_at)}
                    <Typography variant="caption" component="div">
                      {expired ? `expired ${relativeDays(certification.expires_at)}` : `expires ${relativeDays(certification.expires_at)}`}
                    </Typography>
                  </TableCell>
                  <TableCell sx={hideOnPhone}>{formatDay(certification.issued_at)}</TableCell>
                  <TableCell sx={hideOnPhone}>
                    <StatusChip status={expired ? 'expired' : 'active'} />
                  </TableCell>
                </OpenRow>
              );
            })}
          </CompactTable>
        )}
      </Section>
    </Box>
  );
}
