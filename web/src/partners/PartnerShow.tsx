import CloseIcon from '@mui/icons-material/Close';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Tab, Tabs, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useEffect, useState } from 'react';
import { FieldRow, fieldText, PARTNER_SECTIONS, PartnerLogo, PartnerStatusChip } from './PartnerParts';
import { getPartner, type PartnerRecord } from './partnersApi';
import { RecordHistory } from '../history';

/**
 * The partner detail modal: the whole application in sections, and (for admins) its history. Approve
 * and Reject are offered while it is pending.
 */
export function PartnerShow({
  partner,
  onClose,
  isAdmin,
  onApprove,
  onReject,
  initialTab = 'application',
}: {
  partner: PartnerRecord | null;
  onClose: () => void;
  isAdmin: boolean;
  onApprove?: (partner: PartnerRecord) => void;
  onReject?: (partner: PartnerRecord) => void;
  /** History opens the decision history directly (the cards' and User Management's History buttons). */
  initialTab?: 'application' | 'history';
}) {
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const [tab, setTab] = useState<'application' | 'history'>(initialTab);
  const [record, setRecord] = useState<PartnerRecord | null>(partner);

  useEffect(() => {
    setTab(isAdmin ? initialTab : 'application');
    setRecord(partner);
    if (!partner) return;
    let cancelled = false;
    // The list may be a moment old: show the record as it is now.
    getPartner(partner.id)
      .then((fresh) => !cancelled && setRecord(fresh))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only another partner resets the view; isAdmin and initialTab are read at that moment
  }, [partner]);

  const shown = record ?? partner;
  return (
    <Dialog open={Boolean(partner)} onClose={onClose} fullWidth maxWidth="md" fullScreen={phone} aria-labelledby="partner-detail-title">
      <DialogTitle id="partner-detail-title" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, pr: 6 }}>
        {shown ? <PartnerLogo partner={shown} size={40} /> : null}
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="span" sx={{ display: 'block', overflowWrap: 'anywhere', lineHeight: 1.3 }}>
            {shown?.company_name}
          </Typography>
          {shown ? <PartnerStatusChip status={shown.status} /> : null}
        </Box>
        <IconButton aria-label="Close" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      {isAdmin ? (
        <Tabs value={tab} onChange={(_, value) => setTab(value)} sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}>
          <Tab value="application" label="Application" />
          <Tab value="history" label="History" />
        </Tabs>
      ) : null}
      <DialogContent sx={{ pt: 2 }}>
        {shown && tab === 'application' ? (
          <Box data-testid="partner-detail">
            {PARTNER_SECTIONS.map((section) => (
              <Box key={section.title} component="section" sx={{ mb: 2.5 }}>
                <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5, color: 'primary.dark' }}>
                  {section.title}
                </Typography>
                {section.fields
                  .filter((field) => field.key in shown)
                  .map((field) => (
                    <FieldRow key={field.key} label={field.label} value={fieldText(shown, field)} />
                  ))}
              </Box>
            ))}
          </Box>
        ) : null}
        {shown && tab === 'history' ? <RecordHistory path="/partner/partners" id={shown.id} /> : null}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {isAdmin && shown?.status === 'pending' ? (
          <>
            <Button color="error" variant="outlined" onClick={() => onReject?.(shown)}>
              Reject
            </Button>
            <Button color="success" variant="contained" onClick={() => onApprove?.(shown)}>
              Approve
            </Button>
          </>
        ) : null}
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
