import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import PrintIcon from '@mui/icons-material/Print';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import { Alert, Box, Button, GlobalStyles, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { PageTitle } from '../layout/PageTitle';
import { showToast } from '../layout/toast';
import { Loading } from '../lists';
import { messageOf } from '../providers/errorMapper';
import { daysUntil, downloadCertificate, formatDay, getCertification } from './learningApi';
import { ErrorRetry, StatusChip, useLoad } from './LearningParts';

/**
 * Printing shows the certificate alone, on one landscape page: the portal's bar, menu and this
 * page's buttons are left out.
 */
const PRINT = (
  <GlobalStyles
    styles={{
      '@media print': {
        '@page': { size: 'A4 landscape', margin: '12mm' },
        'header, [class*="RaSidebar"], .MuiDrawer-root, .RaMenu-root, .RaAppBar-root, [data-noprint], .MuiSnackbar-root': { display: 'none !important' },
        'body, .RaLayout-content, .RaLayout-appFrame': { background: '#fff !important', padding: '0 !important', margin: '0 !important' },
        '[data-certificate]': { boxShadow: 'none !important', breakInside: 'avoid', margin: '0 auto !important' },
      },
    }}
  />
);

/** /learning/certifications/:id: the printable certificate, with the PDF download. */
export default function CertificatePage() {
  const { id = '' } = useParams();
  const { value: certification, error, reload } = useLoad(() => getCertification(id), [id]);
  const [downloading, setDownloading] = useState(false);

  if (error && !certification) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <PageTitle title="Certificate" />
        <ErrorRetry error={error} onRetry={reload} />
        <Button component={RouterLink} to="/learning" startIcon={<ArrowBackIcon />}>
          Learning
        </Button>
      </Box>
    );
  }
  if (!certification) return <Loading />;
  const expired = certification.status === 'expired' || daysUntil(certification.expires_at) < 0;
  const download = async () => {
    setDownloading(true);
    try {
      await downloadCertificate(certification);
    } catch (caught) {
      showToast(messageOf(caught, 'The PDF could not be downloaded.'), 'error');
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      {PRINT}
      <Box data-noprint>
        <Button component={RouterLink} to={`/learning/courses/${certification.course_id}`} startIcon={<ArrowBackIcon />} size="small" sx={{ mb: 1 }}>
          The course
        </Button>
        <PageTitle title="Certificate" subtitle={`${certification.course_title} — ${certification.user_name}`} />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 2 }}>
          <Button variant="contained" startIcon={<PictureAsPdfIcon />} onClick={() => void download()} disabled={downloading} data-testid="certificate-pdf">
            {downloading ? 'Downloading…' : 'Download PDF'}
          </Button>
          <Button variant="outlined" startIcon={<PrintIcon />} onClick={() => window.print()}>
            Print
          </Button>
        </Stack>
        {expired ? (
          <Alert severity="warning" sx={{ mb: 2 }}>
            This certification expired on {formatDay(certification.expires_at)}. Pass the course again to renew it.
          </Alert>
        ) : null}
      </Box>
      <Box
        data-certificate
        data-testid="certificate"
        sx={{
          maxWidth: 900,
          mx: 'auto',
          p: { xs: 2.5, sm: 5 },
          bgcolor: '#fff',
          color: '#1a1a1a',
          border: '3px double',
          borderColor: 'primary.main',
          outline: '1px solid',
          outlineColor: 'divider',
          outlineOffset: 6,
          textAlign: 'center',
          boxShadow: 2,
        }}
      >
        <WorkspacePremiumIcon sx={{ fontSize: { xs: 44, sm: 64 }, color: 'secondary.main' }} aria-hidden />
        <Typography variant="overline" component="p" sx={{ letterSpacing: 4, fontSize: { xs: 11, sm: 14 } }}>
          Certificate of completion
        </Typography>
        <Typography variant="body1" sx={{ mt: 2 }}>
          This certifies that
        </Typography>
        <Typography
          variant="h4"
          component="p"
          sx={{ fontWeight: 700, my: 1, fontSize: { xs: 26, sm: 34 }, wordBreak: 'break-word' }}
          data-testid="certificate-name"
        >
          {certification.user_name}
        </Typography>
        {certification.organisation_name ? (
          <Typography variant="body2" color="text.secondary">
            {certification.organisation_name}
          </Typography>
        ) : null}
        <Typography variant="body1" sx={{ mt: 2 }}>
          has passed the course
        </Typography>
        <Typography
          variant="h5"
          component="p"
          sx={{ fontWeight: 600, my: 1, fontSize: { xs: 20, sm: 26 }, wordBreak: 'break-word' }}
          data-testid="certificate-course"
        >
          {certification.course_title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          version {certification.course_version}
        </Typography>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' }, gap: 2, mt: 4 }}>
          <Box>
            <Typography variant="caption" color="text.secondary" component="p">
              Issued
            </Typography>
            <Typography sx={{ fontWeight: 600 }} data-testid="certificate-issued">
              {formatDay(certification.issued_at)}
            </Typography>
          </Box>
          <Box>
            <Typography variant="caption" color="text.secondary" component="p">
              Valid until
            </Typography>
            <Typography sx={{ fontWeight: 600 }} data-testid="certificate-expires">
              {formatDay(certification.expires_at)}
            </Typography>
          </Box>
          <Box>
            <Typography variant="caption" color="text.secondary" component="p">
              Verification code
            </Typography>
            <Typography sx={{ fontWeight: 600, fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="certificate-code">
              {certification.verification_code}
            </Typography>
          </Box>
        </Box>
        <Stack direction="row" justifyContent="center" sx={{ mt: 3 }}>
          <StatusChip status={expired ? 'expired' : 'active'} label={expired ? 'Expired' : 'Valid'} />
        </Stack>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 2 }}>
          Anyone can check this certificate at {window.location.origin}/verify-certificate/{certification.verification_code}
        </Typography>
      </Box>
    </Box>
  );
}
