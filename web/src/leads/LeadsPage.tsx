import { Alert, Box, Button, Card, CardActions, CardContent, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { PageTitle } from '../layout/PageTitle';
import { SectionTabs } from '../layout/SectionTabs';
import { showToast } from '../layout/toast';
import { formatDate } from '../formatting';
import { TextDialog } from './LeadDialogs';
import type { Lead } from '@contracts/leads';
import { acceptLead, declineLead, listLeads, money, SOURCE_LABELS, timeLeft } from './leadsApi';

const PIPELINE = [
  { key: 'accepted', label: 'Accepted' },
  { key: 'contacted', label: 'Contacted' },
  { key: 'qualified', label: 'Qualified' },
  { key: 'converted', label: 'Converted' },
  { key: 'disqualified', label: 'Disqualified' },
  { key: 'lapsed', label: 'Lapsed' },
  { key: 'declined', label: 'Declined' },
] as const;

/** /leads: the organisation's leads. New leads awaiting an answer first, with the time left; then the pipeline by status. */
export default function LeadsPage() {
  const navigate = useNavigate();
  const [awaiting, setAwaiting] = useState<Lead[] | null>(null);
  const [tab, setTab] = useState<string>('accepted');
  const [pipeline, setPipeline] = useState<Lead[] | null>(null);
  const [declining, setDeclining] = useState<Lead | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [, tick] = useState(0);

  const load = useCallback(async () => {
    try {
      setAwaiting((await listLeads({ status: 'assigned' }, 1, 50)).leads.sort((a, b) => (a.due_at ?? '').localeCompare(b.due_at ?? '')));
      setPipeline((await listLeads({ status: tab }, 1, 50)).leads);
      setError(null);
    } catch (caught) {
      setError((caught as Error).message);
    }
  }, [tab]);
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 30_000);
    return () => clearInterval(timer);
  }, []);

  const accept = async (lead: Lead) => {
    try {
      await acceptLead(lead.id);
      showToast(`Lead from ${lead.company} accepted`, 'success');
      navigate(`/leads/${lead.id}`);
    } catch (caught) {
      showToast((caught as Error).message, 'error');
      void load();
    }
  };

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <PageTitle
        title="Leads"
        subtitle="Leads the vendor routed to your organisation: answer new ones before their window closes, then work them into deals."
      />
      {error ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      ) : null}
      <Typography variant="h6" sx={{ mb: 1 }}>
        Awaiting your answer
      </Typography>
      {awaiting && awaiting.length === 0 ? (
        <Alert severity="info" sx={{ mb: 3 }}>
          No new leads are waiting for your answer.
        </Alert>
      ) : null}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' }, mb: 3 }} data-testid="awaiting-leads">
        {(awaiting ?? []).map((lead) => (
          <Card key={lead.id} variant="outlined" data-testid={`awaiting-${lead.id}`}>
            <CardContent>
              <Stack direction="row" justifyContent="space-between" alignItems="flex-start" spacing={1}>
                <Typography variant="subtitle1" fontWeight={600}>
                  {lead.company}
                </Typography>
                <Chip size="small" color="warning" label={timeLeft(lead.due_at)} />
              </Stack>
              <Typography variant="body2" color="text.secondary">
                {[lead.product_interest, lead.country, lead.region].filter(Boolean).join(' · ')}
              </Typography>
              <Typography variant="body2">
                Estimated value {money(lead.estimated_value)} · {SOURCE_LABELS[lead.source] ?? lead.source}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                Contact details appear once you accept.
              </Typography>
            </CardContent>
            <CardActions>
              <Button variant="contained" size="small" onClick={() => accept(lead)} data-testid="accept-lead">
                Accept
              </Button>
              <Button size="small" color="inherit" onClick={() => setDeclining(lead)} data-testid="decline-lead">
                Decline
              </Button>
              <Button size="small" onClick={() => navigate(`/leads/${lead.id}`)}>
                Details
              </Button>
            </CardActions>
          </Card>
        ))}
      </Box>
      <SectionTabs sections={PIPELINE} value={tab} onChange={setTab} label="Lead pipeline" sx={{ minWidth: 0 }}>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>Company</TableCell>
                <TableCell>Contact</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Interest</TableCell>
                <TableCell align="right">Value</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Received</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(pipeline ?? []).map((lead) => (
                <TableRow key={lead.id} hover sx={{ cursor: 'pointer' }} onClick={() => navigate(`/leads/${lead.id}`)} data-testid={`pipeline-${lead.id}`}>
                  <TableCell>{lead.company}</TableCell>
                  <TableCell>
                    {lead.contact_visible ? (
                      lead.contact_name
                    ) : (
                      <Typography variant="caption" color="text.secondary">
                        hidden
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{lead.product_interest}</TableCell>
                  <TableCell align="right">{money(lead.estimated_value)}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{formatDate(lead.created_at)}</TableCell>
                </TableRow>
              ))}
              {pipeline && pipeline.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={5}>No leads here.</TableCell>
                </TableRow>
              ) : null}
            </TableBody>
          </Table>
        </Box>
      </SectionTabs>
      <TextDialog
        open={declining !== null}
        title={`Decline the lead from ${declining?.company ?? ''}`}
        label="Reason"
        confirm="Decline"
        onClose={() => setDeclining(null)}
        onConfirm={async (reason) => {
          await declineLead(declining!.id, reason);
          showToast('Lead declined', 'success');
          setDeclining(null);
          await load();
        }}
      />
    </Box>
  );
}
