import { Box, Button, LinearProgress, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { formatDate } from '../formatting';
import { EmptyState, Loading } from '../lists';
import { daysUntil, formatDay, listAssignments, listCertifications, listEnrolments, myUserId, relativeDays } from './learningApi';
import { ErrorRetry, OVERDUE_BG, StatusChip, useLoad } from './LearningParts';

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
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>Course</TableCell>
                  <TableCell>Due</TableCell>
                  <TableCell sx={hideOnPhone}>Note</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {assignments.map((assignment) => (
                  <TableRow
                    key={assignment.id}
                    hover
                    sx={{ cursor: 'pointer', bgcolor: assignment.overdue ? OVERDUE_BG : undefined }}
                    onClick={() => navigate(`/learning/courses/${assignment.course_id}`)}
                    data-testid={assignment.overdue ? 'assignment-overdue' : 'assignment'}
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
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
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
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>Course</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell sx={{ ...hideOnPhone, minWidth: 140 }}>Progress</TableCell>
                  <TableCell align="right" sx={hideOnPhone}>
                    Best score
                  </TableCell>
                  <TableCell sx={hideOnPhone}>Last activity</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {enrolments.map((enrolment) => (
                  <TableRow
                    key={enrolment.id}
                    hover
                    sx={{ cursor: 'pointer' }}
                    onClick={() => navigate(`/learning/courses/${enrolment.course_id}`)}
                    data-testid="enrolment"
                  >
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
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </Section>

      <Section title="Your certifications" testId="my-certifications">
        {certifications.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No certifications yet. Passing a certifying course's quiz certifies you.
          </Typography>
        ) : (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>Course</TableCell>
                  <TableCell>Expires</TableCell>
                  <TableCell sx={hideOnPhone}>Issued</TableCell>
                  <TableCell sx={hideOnPhone}>Status</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {certifications.map((certification) => {
                  const days = daysUntil(certification.expires_at);
                  const expired = certification.status === 'expired' || days < 0;
                  const soon = !expired && days <= 30;
                  return (
                    <TableRow
                      key={certification.id}
                      hover
                      sx={{ cursor: 'pointer' }}
                      onClick={() => navigate(`/learning/certifications/${certification.id}`)}
                      data-testid="certification"
                    >
                      <TableCell>{certification.course_title}</TableCell>
                      <TableCell
                        sx={{
                          color: expired ? 'error.main' : soon ? 'warning.dark' : undefined,
                          fontWeight: expired || soon ? 600 : undefined,
                          whiteSpace: 'nowrap',
                        }}
                      >
                        {formatDay(certification.expires_at)}
                        <Typography variant="caption" component="div">
                          {expired ? `expired ${relativeDays(certification.expires_at)}` : `expires ${relativeDays(certification.expires_at)}`}
                        </Typography>
                      </TableCell>
                      <TableCell sx={hideOnPhone}>{formatDay(certification.issued_at)}</TableCell>
                      <TableCell sx={hideOnPhone}>
                        <StatusChip status={expired ? 'expired' : 'active'} />
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </Box>
        )}
      </Section>
    </Box>
  );
}
