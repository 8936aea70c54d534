// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * What a public class shows its users: its supertypes and the types in the signatures of its public
 * and protected members (return, parameter, field and thrown types, with their type arguments).
 * Permitted subclasses of a sealed type are not shown: users cannot name them.
 */
final class ExposedTypes {

  private ExposedTypes() {}

  static ArchCondition<JavaClass> exposeNoTypeFromPackagesMatching(String fragment) {
    return new ArchCondition<>("expose no type from a package containing '" + fragment + "'") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        for (String exposure : exposures(c)) {
          if (exposure.contains(fragment)) {
            events.add(SimpleConditionEvent.violated(c, c.getName() + " exposes " + exposure));
          }
        }
      }
    };
  }

  private static List<String> exposures(JavaClass c) {
    List<String> found = new ArrayList<>();
    c.getRawSuperclass().ifPresent(s -> found.add("supertype " + s.getName()));
    c.getRawInterfaces().forEach(i -> found.add("supertype " + i.getName()));
    for (JavaMember member : c.getMembers()) {
      if (!isVisible(member)) {
        continue;
      }
      String where = member.getFullName();
      if (member instanceof JavaField f) {
        found.add(where + ": " + names(f.getType()));
      } else if (member instanceof JavaCodeUnit code) {
        found.add(where + " returns " + names(code.getReturnType()));
        code.getParameterTypes().forEach(p -> found.add(where + " takes " + names(p)));
        code.getThrowsClause().getTypes().forEach(t -> found.add(where + " throws " + t.getName()));
      }
    }
    return found;
  }

  private static boolean isVisible(JavaMember member) {
    return member.getModifiers().contains(JavaModifier.PUBLIC)
        || member.getModifiers().contains(JavaModifier.PROTECTED);
  }

  /** The raw type and every type argument, as named classes. */
  private static String names(JavaType type) {
    StringBuilder s = new StringBuilder();
    type.getAllInvolvedRawTypes().forEach(t -> s.append(t.getName()).append(' '));
    return s.toString().trim();
  }
}
