import { Box, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { useNavigate } from 'react-router-dom';
import { EmptyState, Loading } from '../lists';
import { getReports, type ReportRow } from './learningApi';
import { ErrorRetry, StatusChip, useLoad } from './LearningParts';

const short = (title: string) => (title.length > 18 ? `${title.slice(0, 17)}…` : title);
const percent = (value: number | null) => (value === null ? '—' : `${Math.round(value)}%`);

function ChartCard({
  title,
  testId,
  rows,
  series,
  max,
}: {
  title: string;
  testId: string;
  rows: ReportRow[];
  series: Array<{ key: keyof ReportRow; label: string; color: string; format: (v: number | null) => string }>;
  max?: number;
}) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, mb: 2, minWidth: 0 }} data-testid={testId}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      <Box sx={{ width: '100%', minWidth: 0 }}>
        <BarChart
          height={Math.max(200, 80 + rows.length * 48)}
          layout="horizontal"
          skipAnimation
          yAxis={[{ scaleType: 'band', data: rows.map((row) => short(row.title)), width: 120, tickLabelStyle: { fontSize: 12 } }]}
          xAxis={[{ min: 0, max, tickMinStep: 1 }]}
          series={series.map((s) => ({
            data: rows.map((row) => Number(row[s.key] ?? 0)),
            label: s.label,
            color: s.color,
            valueFormatter: (value: number | null) => s.format(value),
          }))}
          margin={{ right: 24 }}
        />
      </Box>
    </Paper>
  );
}

/** Completions and pass rates per course, as charts and as the table of the same figures. */
export default function LearningReports() {
  const navigate = useNavigate();
  const { value, error, reload } = useLoad(getReports, []);
  if (error && !value) return <ErrorRetry error={error} onRetry={reload} />;
  if (!value) return <Loading />;
  const rows = value.filter((row) => row.status !== 'draft');
  if (rows.length === 0)
    return <EmptyState title="No published courses yet." message="Completions and pass rates appear once a course is published and people enrol." />;
  const attempted = rows.filter((row) => row.enrolled > 0);

  return (
    <Box data-testid="learning-reports">
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
        <ChartCard
          title="Completion and pass rates"
          testId="chart-rates"
          rows={attempted.length ? attempted : rows}
          max={100}
          series={[
            { key: 'completion_rate', label: 'Completion rate', color: '#1565c0', format: percent },
            { key: 'pass_rate', label: 'Pass rate', color: '#2e7d32', format: percent },
          ]}
        />
        <ChartCard
          title="People per course"
          testId="chart-people"
          rows={rows}
          series={[
            { key: 'enrolled', label: 'Enrolled', color: '#90caf9', format: (v) => String(v ?? 0) },
            { key: 'completed', label: 'Completed', color: '#1565c0', format: (v) => String(v ?? 0) },
            { key: 'passed', label: 'Passed', color: '#2e7d32', format: (v) => String(v ?? 0) },
          ]}
        />
      </Box>
      <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Completions and pass rates per course">
          <TableHead>
            <TableRow>
              <TableCell>Course</TableCell>
              <TableCell>Status</TableCell>
              <TableCell align="right">Enrolled</TableCell>
              <TableCell align="right">Completed</TableCell>
              <TableCell align="right">Passed</TableCell>
              <TableCell align="right">Attempts</TableCell>
              <TableCell align="right">Pass rate</TableCell>
              <TableCell align="right">Average score</TableCell>
              <TableCell align="right">Active certifications</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {value.map((row) => (
              <TableRow
                key={row.course_id}
                hover
                sx={{ cursor: 'pointer' }}
                onClick={() => navigate(`/learning/admin/courses/${row.course_id}`)}
                data-testid="report-row"
              >
                <TableCell>{row.title}</TableCell>
                <TableCell>
                  <StatusChip status={row.status} />
                </TableCell>
                <TableCell align="right">{row.enrolled}</TableCell>
                <TableCell align="right">{row.completed}</TableCell>
                <TableCell align="right">{row.passed}</TableCell>
                <TableCell align="right">{row.attempts}</TableCell>
                <TableCell align="right">{percent(row.pass_rate)}</TableCell>
                <TableCell align="right">{percent(row.average_score)}</TableCell>
                <TableCell align="right">{row.certifying ? row.active_certifications : '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
    </Box>
  );
}
