import Inventory2Icon from '@mui/icons-material/Inventory2';
import { ProductCreate } from './ProductCreate';
import { ProductEdit } from './ProductEdit';
import { ProductList } from './ProductList';
import type { ProductView } from '@contracts/products';

/** The products resource, shown in the admin panel's Product Management tab. */
export default {
  list: ProductList,
  create: ProductCreate,
  edit: ProductEdit,
  icon: Inventory2Icon,
  recordRepresentation: (record: ProductView) => record.name,
};
