import CancelOutlinedIcon from '@mui/icons-material/CancelOutlined';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import { Box, Button, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatDate } from '../formatting';
import { fetchOwnApplication, type PartnerRecord, type PartnerStatus } from '../partners/partnersApi';

export const OWN_APPLICATION_TITLES: Record<PartnerStatus, string> = {
  pending: 'Your application is under review',
  approved: 'Your application is approved',
  rejected: 'Your application was not approved',
};

/** An application counts as sent once the wizard or the questionnaire was submitted, or once an administrator decided on it. */
export const applicationSent = (partner: PartnerRecord) =>
  Boolean(partner.application_submitted_at || partner.questionnaire_submitted_at || partner.status !== 'pending');

export type OwnApplicationState = { state: 'loading' } | { state: 'none' } | { state: 'sent'; partner: PartnerRecord } | { state: 'failed' };

/**
 * The signed-in partner's application, when `userId` is given: a partner who already applied sees
 * where it stands instead of a second, blank application.
 */
export function useOwnApplication(userId: string | null): OwnApplicationState {
  const [answer, setAnswer] = useState<OwnApplicationState>(userId ? { state: 'loading' } : { state: 'none' });
  useEffect(() => {
    if (!userId) return setAnswer({ state: 'none' });
    let current = true;
    setAnswer({ state: 'loading' });
    fetchOwnApplication(userId).then(
      (partner) => current && setAnswer(partner && applicationSent(partner) ? { state: 'sent', partner } : { state: 'none' }),
      () => current && setAnswer({ state: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [userId]);
  return answer;
}

const ICONS = { pending: HourglassTopIcon, approved: CheckCircleIcon, rejected: CancelOutlinedIcon } as const;
const COLOURS = { pending: 'info', approved: 'success', rejected: 'error' } as const;

function detailOf(partner: PartnerRecord): string {
  const sent = partner.application_submitted_at ?? partner.questionnaire_submitted_at;
  const sentOn = sent ? `You sent it on ${formatDate(sent)}. ` : '';
  switch (partner.status) {
    case 'pending':
      return `${sentOn}We will review your application within 2-3 business days and e-mail you the outcome.`;
    case 'approved':
      return `${partner.decided_at ? `Approved on ${formatDate(partner.decided_at)}` : 'Approved'}${partner.category ? ` as ${partner.category}` : ''}. Your partner portal is ready.`;
    case 'rejected':
      return `${partner.decided_at ? `Decided on ${formatDate(partner.decided_at)}. ` : ''}Contact the administrator if you would like to apply again.`;
  }
}

/** Where the partner's own application stands, with the way to their dashboard. */
export function OwnApplication({ partner }: { partner: PartnerRecord }) {
  const Icon = ICONS[partner.status];
  return (
    <Box data-testid="own-application" data-status={partner.status} sx={{ textAlign: 'center', py: 2 }}>
      <Icon color={COLOURS[partner.status]} sx={{ fontSize: 56 }} aria-hidden />
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mt: 1 }}>
        {OWN_APPLICATION_TITLES[partner.status]}
      </Typography>
      <Typography variant="subtitle1" color="text.secondary" sx={{ mt: 0.5 }}>
        {partner.company_name}
      </Typography>
      {partner.status === 'rejected' && partner.rejection_reason ? (
        <Typography sx={{ mt: 2, mx: 'auto', maxWidth: 480, overflowWrap: 'anywhere' }} data-testid="own-application-reason">
          Reason: {partner.rejection_reason}
        </Typography>
      ) : null}
      <Typography color="text.secondary" sx={{ mt: 2, mx: 'auto', maxWidth: 480 }}>
        {detailOf(partner)}
      </Typography>
      <Button component={Link} to="/partnerdashboard" variant="contained" sx={{ mt: 3 }}>
        Go to your dashboard
      </Button>
    </Box>
  );
}
