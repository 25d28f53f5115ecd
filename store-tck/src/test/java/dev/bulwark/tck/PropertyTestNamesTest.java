package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.bulwark.tck.property.Gen;
import dev.bulwark.tck.property.Property;
import dev.bulwark.tck.property.TestNames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A property declared in an abstract suite, as a store's are: its failure tells how to replay it
 * with the subclass that ran it, which the call stack does not show.
 */
class PropertyTestNamesTest extends AbstractPropertySuite {}

@ExtendWith(TestNames.class)
abstract class AbstractPropertySuite {

  @Test
  void aFailureNamesTheSubclassThatRanIt() {
    AssertionError failure =
        catchThrowableOfType(
            () ->
                Property.forAll(
                    10,
                    Gen.ints(0, 1),
                    n -> {
                      throw new AssertionError("never holds");
                    }),
            AssertionError.class);

    assertThat(failure)
        .hasMessageContaining("-Dtest='PropertyTestNamesTest#aFailureNamesTheSubclassThatRanIt'");
  }
}
