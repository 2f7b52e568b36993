"""Class tools: the class report (:mod:`.report`) and a simulated class to try it on (:mod:`.simulate`)."""
