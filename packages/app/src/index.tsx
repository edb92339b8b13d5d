import ReactDOM from 'react-dom/client';
// Styles of Backstage UI (@backstage/ui), used by the new frontend system's
// headers and pages; without them those render unstyled.
import '@backstage/ui/css/styles.css';
import { app } from './App';

ReactDOM.createRoot(document.getElementById('root')!).render(app.createRoot());
