import { Box, Button, Typography } from '@mui/material';
import { type ReactNode } from 'react';
import { formatDateTime } from '../formatting';
import { useToast } from '../layout/toast';
import { type ProjectRecord } from './projectsApi';

const Field = ({ label, value }: { label: string; value: ReactNode }) => (
  <Box sx={{ minWidth: 0 }}>
    <Typography variant="caption" color="text.secondary">
      {label}
    </Typography>
    <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
      {value === null || value === undefined || value === '' ? '—' : value}
    </Typography>
  </Box>
);

export function Overview({ project }: { project: ProjectRecord }) {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(3, 1fr)' } }}>
      <Field label="Partner" value={project.company.company_name} />
      <Field label="Client" value={project.client} />
      <Field label="Project Stage" value={project.project_stage} />
      <Field label="Country / Region" value={project.country_region} />
      <Field label="Sales Person" value={project.sales_person} />
      <Field label="Registered by" value={project.created_by_name} />
      <Field label="End User Location" value={project.end_user_location} />
      <Field label="End User IT Head" value={project.end_user_it_head_name} />
      <Field label="End User Contact" value={[project.end_user_contact_number, project.end_user_email].filter(Boolean).join(' · ')} />
      <Field
        label="Partner Contact"
        value={[project.partner_company_name, project.partner_email, project.partner_contact_number].filter(Boolean).join(' · ')}
      />
      <Field label="Submitted" value={formatDateTime(project.submitted_at)} />
      <Field label="Last updated" value={formatDateTime(project.updated_at)} />
      <Box sx={{ gridColumn: '1 / -1' }}>
        <Field label="End User Requirements" value={project.end_user_requirements} />
      </Box>
      <Box sx={{ gridColumn: '1 / -1' }}>
        <Field label="Progress Remarks" value={project.project_progress_remarks} />
      </Box>
      <Field label="Bill of Quantities" value={project.boq_file_url ? <BoqLink project={project} /> : 'No file'} />
    </Box>
  );
}

/** The BoQ is private: fetched with the session's token, then offered as a download. */
function BoqLink({ project }: { project: ProjectRecord }) {
  const toast = useToast();
  const download = async () => {
    const { getAccessToken } = await import('../providers/session');
    const response = await fetch(project.boq_file_url!, { headers: { Authorization: `Bearer ${getAccessToken()}` } });
    if (!response.ok) return toast('The BoQ file could not be downloaded.', 'error');
    const link = document.createElement('a');
    link.href = URL.createObjectURL(await response.blob());
    link.download = `boq-${project.id.slice(0, 8)}.${project.boq_file?.split('.').pop()}`;
    link.click();
  };
  return (
    <Button size="small" onClick={() => void download()} sx={{ p: 0, minWidth: 0 }}>
      Download BoQ
    </Button>
  );
}
