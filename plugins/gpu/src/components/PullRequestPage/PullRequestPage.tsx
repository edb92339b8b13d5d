import { Content, Header, Page } from '@backstage/core-components';
import { Route, Routes, useParams } from 'react-router-dom';
import { PullRequestDetail } from './PullRequestDetail';
import { PullRequestList } from './PullRequestList';

/**
 * The app's review of GPU pull requests (`/gpu/pull-requests`): the open
 * ones, and each one at `/gpu/pull-requests/<branch without gpu/>` — where
 * the scaffolder task's "Pull request" link of the local forge leads.
 *
 * @public
 */
export function PullRequestPage() {
  return (
    <Page themeId="tool">
      <Header
        title="GPU pull requests"
        subtitle="Requests for GPUs waiting for review in the GitOps repository"
      />
      <Content>
        <Routes>
          <Route path="/" element={<PullRequestList />} />
          <Route path="/*" element={<DetailOfRoute />} />
        </Routes>
      </Content>
    </Page>
  );
}

function DetailOfRoute() {
  const id = useParams()['*'] ?? '';
  return <PullRequestDetail id={id} />;
}
