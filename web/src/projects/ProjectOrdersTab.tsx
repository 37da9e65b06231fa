import { formatUsd } from '@domain/money';
import { Box } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { formatDate } from '../formatting';
import { OrderStatusChip } from '../orders/OrderStatusChip';
import { LinkedRecords } from './LinkedRecords';
import { getOrderCandidates, getProjectOrders, linkOrder, unlinkOrder, type LinkedOrder, type ProjectOrder, type ProjectRecord } from './projectsApi';

/** The orders of the project's organisation linked to the project; the owner links and unlinks them. */
export function OrdersTab({ project, canEdit }: { project: ProjectRecord; canEdit: boolean }) {
  return (
    <LinkedRecords<LinkedOrder, ProjectOrder>
      projectId={project.id}
      canEdit={canEdit}
      getLinked={getProjectOrders}
      getCandidates={getOrderCandidates}
      chooseLabel="Link an order"
      noCandidates="No other orders of your organisation."
      candidateLabel={(o) => `${o.order_number} · ${formatUsd(o.total_amount)}`}
      linkLabel="Link"
      link={linkOrder}
      empty="No orders linked to this project yet"
      removeLabel={(o) => `Unlink ${o.order_number}`}
      remove={(projectId, o) => unlinkOrder(projectId, o.id)}
      primary={(o) => (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <RouterLink to={`/order/track/${o.id}`}>{o.order_number}</RouterLink>
          <OrderStatusChip status={o.status} />
        </Box>
      )}
      secondary={(o) => `${formatDate(o.order_date)} · ${formatUsd(o.total_amount)}`}
    />
  );
}
