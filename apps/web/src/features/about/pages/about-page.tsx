import { Anchor, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../../lib/page-title';

export function AboutPage() {
  usePageTitle('About');
  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>About Haversack</Title>
      <Text>
        Haversack is a companion for tabletop role-playing groups. Players keep their characters, containers
        and items; game masters run parties and open shops; every change to an inventory is recorded and
        shared with the party as it happens.
      </Text>
      <Stack gap="xs" component="section" aria-labelledby="credits-heading">
        <Title order={2} id="credits-heading">
          Credits
        </Title>
        <Text>
          The item catalogue comes from the System Reference Document 5.1. Haversack is compatible with fifth
          edition.
        </Text>
        {/* CC-BY-4.0 attribution required by SRD 5.1: keep this statement word for word. */}
        {/* The long addresses break anywhere, so a phone never scrolls sideways. */}
        <Text component="blockquote" style={{ overflowWrap: 'anywhere' }}>
          This work includes material taken from the System Reference Document 5.1 ("SRD 5.1") by Wizards of
          the Coast LLC and available at{' '}
          <Anchor href="https://dnd.wizards.com/resources/systems-reference-document">
            https://dnd.wizards.com/resources/systems-reference-document
          </Anchor>
          . The SRD 5.1 is licensed under the Creative Commons Attribution 4.0 International License available
          at{' '}
          <Anchor href="https://creativecommons.org/licenses/by/4.0/legalcode">
            https://creativecommons.org/licenses/by/4.0/legalcode
          </Anchor>
          .
        </Text>
        {/* CC-BY-4.0 §3(a)(1)(B): say that the material was changed (LICENSE-NOTICE.md lists how). */}
        <Text>
          Haversack changed the SRD's item data: records were reshaped, formatting removed, short summaries
          written from their statistics, ammunition priced per piece (sling bullets are sold in bundles of
          20), the Potion of Healing given the gear table's price and weight, umbrella magic-item entries left
          out, and tags and stack sizes added.
        </Text>
        {/* CC BY 3.0 asks for the author, the title, the licence and a link to each. */}
        <Text style={{ overflowWrap: 'anywhere' }}>
          Item icons are from <Anchor href="https://game-icons.net">Game Icons</Anchor> by Lorc, Delapouite
          and contributors, used under the{' '}
          <Anchor href="https://creativecommons.org/licenses/by/3.0/">
            Creative Commons Attribution 3.0 Unported License
          </Anchor>
          .
        </Text>
      </Stack>
    </Stack>
  );
}
