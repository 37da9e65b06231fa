import { Placeholder } from '../placeholders/Placeholder';
export default function AdminPanel() {
  return <Placeholder title="Admin Panel" />;
}
