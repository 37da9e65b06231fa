import HandshakeIcon from '@mui/icons-material/Handshake';
import { PartnerApprovals } from './PartnerApprovals';
import PartnerDirectory from './PartnerDirectory';
import { PartnerShow } from './PartnerShow';
import type { PartnerRecord } from './partnersApi';

/**
 * The partners resource: the admin panel's Partner Approvals (list), the partner detail modal (show)
 * and the partner directory screen.
 */
export default {
  list: PartnerApprovals,
  show: PartnerShow,
  directory: PartnerDirectory,
  icon: HandshakeIcon,
  recordRepresentation: (record: PartnerRecord) => record.company_name,
};
